/**
 * The deepest stack a script may have. The module's C stack is 5 MiB (its layout, sandbox-snapshot.ts); past
 * about that, QuickJS's limit falls below the stack's end and every script, even its compilation, fails with
 * "stack overflow". A host that asks for more gets this much (the server refuses such a setting outright). A
 * module of its own: a host checks its flags against it without loading the runtime.
 */
export const maxStackBytes = 4 << 20
