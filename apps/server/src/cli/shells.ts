/** The shells `switchboard completion` writes a script for. */
export const SHELLS = ["bash", "zsh", "fish"] as const
