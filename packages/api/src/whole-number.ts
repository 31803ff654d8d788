/**
 * Numeric request parameters, range-checked in one place: a value out of range is the caller's mistake (400
 * naming the parameter and its range), never a 500 from deeper down (`?limit=1e20` used to reach the SQL).
 */
export interface WholeNumberRange {
  min: number
  max: number
}

/** A query-string or JSON value as a whole number in range; undefined when absent; a message when not. */
export const wholeNumber = (
  raw: unknown,
  name: string,
  { min, max }: WholeNumberRange,
): { ok: true; value: number | undefined } | { ok: false; message: string } => {
  if (raw === undefined) return { ok: true, value: undefined }
  const value =
    typeof raw === "number" ? raw : typeof raw === "string" && /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN
  if (Number.isSafeInteger(value) && value >= min && value <= max) return { ok: true, value }
  return { ok: false, message: `${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})` }
}

/** Rows a list or search answers at most. */
export const MAX_LIST_LIMIT = 1_000
/** The largest offset into stored text (lines or characters): more than any stored result holds. */
export const MAX_TEXT_OFFSET = 2 ** 31 - 1
