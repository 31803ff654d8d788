/** Cutting UTF-16 text without splitting a surrogate pair: a half of one would reach a model as a lone surrogate. */
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/** An end at or before `at` that does not fall between the halves of a surrogate pair. */
export const endAt = (text: string, at: number) => (isHighSurrogate(text.charCodeAt(at - 1)) ? at - 1 : at)

/** A start at or after `at` that does not begin on the second half of a surrogate pair. */
export const startAt = (text: string, at: number) => (at > 0 && isLowSurrogate(text.charCodeAt(at)) ? at + 1 : at)
