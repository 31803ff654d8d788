/** The catalog a command opens when `--db` is not given (the CLI's help names it too). */
export const DEFAULT_DB = "./.switchboard/switchboard.db"

/** --db when it is not given: $SWITCHBOARD_DB, $DATABASE_URL, or the default path (an empty variable is an unset one) */
export const defaultDb = () => process.env.SWITCHBOARD_DB || process.env.DATABASE_URL || DEFAULT_DB
