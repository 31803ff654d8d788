/**
 * A paused call's arguments as a person deciding it reads them: in a question, a paused text or a table. Two
 * rules hold in every view. Nothing a terminal or a dialog would act on reaches the page: control, bidi and
 * zero-width characters are shown as `\uXXXX`. And a preview that cannot hold the whole call shares its room
 * between the fields, so a long harmless field first cannot push `to` and `amount` out of sight; what it cuts,
 * it names, and the caller says where the whole arguments are.
 */

/** C0 and C1 controls, the line and paragraph separators, bidi marks, embeddings, overrides and isolates, zero-width characters and the BOM */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g

/** the same less C0: in JSON text those are escaped already, and a raw newline is its indentation */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`

/** Text with every character a terminal or a dialog would act on written as a `\uXXXX` escape. */
export const escapeUnsafe = (text: string) => text.replace(UNSAFE, escape)

/** A value as JSON a person may read safely: JSON escapes what it must, then the rest of the unsafe characters. */
export const safeJson = (value: unknown, indent?: number) =>
  (JSON.stringify(value, null, indent) ?? "undefined").replace(UNSAFE_IN_JSON, escape)

export interface ArgsPreview {
  text: string
  /** the fields (paths such as `memo` or `items[3]`) whose value the text does not show whole; empty when it shows all */
  cut: string[]
}

/** the least room a cut value keeps, so it still says how it starts */
const MIN_SHARE = 12
/** about what counting the fields left out takes: `,…123 more fields` */
const CUT_NOTE = 18
/** a field name longer than this is itself cut */
const MAX_KEY = 60

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const fieldPath = (parent: string, key: string) =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? (parent ? `${parent}.${key}` : key) : `${parent}[${safeJson(key)}]`

const lengthNote = (length: number) => `…(${length} chars)`
/** the fewest characters a cut text of this length is shown in */
const shortestCut = (length: number) => MIN_SHARE + lengthNote(length).length

/** the start of `text` and how long it is, in about `room` characters */
const cutText = (text: string, room: number) => {
  const told = lengthNote(text.length)
  return `${text.slice(0, Math.max(MIN_SHARE, room - told.length))}${told}`
}

/** `value` in about `room` characters; every cut it makes is pushed on `cut` under `path` */
const preview = (value: unknown, room: number, path: string, cut: string[]): string => {
  const whole = safeJson(value)
  if (whole.length <= room) return whole
  if (isPlainObject(value)) return objectPreview(value, room, path, cut)
  if (Array.isArray(value)) return arrayPreview(value, room, path, cut)
  cut.push(path || "(the arguments)")
  return cutText(whole, room)
}

/**
 * Every field by name, its value given a fair share: values that fit their share are shown whole, and what they
 * leave goes to the longer ones. Fields past the room are counted, the first of them named.
 */
const objectPreview = (value: Record<string, unknown>, room: number, path: string, cut: string[]): string => {
  const keys = Object.keys(value)
  const lengths = keys.map((key) => safeJson(value[key]).length)
  const fullNames = keys.map((key) => safeJson(key))
  const names = fullNames.map((name) => (name.length <= MAX_KEY ? name : cutText(name, MAX_KEY)))
  // a field takes its name and at least the start of its value
  const takes = names.map((name, i) => name.length + 2 + Math.min(lengths[i]!, shortestCut(lengths[i]!)))
  let count = keys.length
  if (takes.reduce((sum, n) => sum + n, 2) > room) {
    // not every field fits: as many as do, with room left to count the rest
    let need = 2 + CUT_NOTE
    count = 0
    while (count < keys.length && (count === 0 || need + takes[count]! <= room)) need += takes[count++]!
  }
  names.length = count
  names.forEach((name, i) => name !== fullNames[i] && cut.push(fieldPath(path, keys[i]!)))
  const named = names.reduce((sum, name) => sum + name.length + 2, 2)
  let left = room - named
  const order = names.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]!)
  const shown = new Array<string>(names.length)
  order.forEach((index, rank) => {
    const share = Math.floor(left / (order.length - rank))
    shown[index] = preview(value[keys[index]!], share, fieldPath(path, keys[index]!), cut)
    left -= shown[index].length
  })
  const fields = names.map((name, i) => `${name}:${shown[i]}`)
  const rest = keys.length - names.length
  if (rest === 0) return `{${fields.join(",")}}`
  cut.push(`${rest} more fields from ${fieldPath(path, keys[names.length]!)}`)
  return `{${fields.join(",")},…${rest} more fields}`
}

/** Items from the first while they fit, then how many are not shown. */
const arrayPreview = (value: unknown[], room: number, path: string, cut: string[]): string => {
  const items: string[] = []
  let used = 2
  for (const [i, item] of value.entries()) {
    const text = safeJson(item)
    if (used + text.length + 1 > room && items.length > 0) {
      cut.push(`${path}[${i}…]`)
      return `[${items.join(",")},…${value.length - i} more items]`
    }
    const shown = used + text.length + 1 > room ? preview(item, room - used, `${path}[${i}]`, cut) : text
    items.push(shown)
    used += shown.length + 1
  }
  return `[${items.join(",")}]`
}

/**
 * The arguments in about `room` characters (names of many fields may take more). When the whole call fits, it is
 * the whole call; otherwise `cut` names what the text does not show whole.
 */
export const argsPreview = (args: unknown, room: number): ArgsPreview => {
  const cut: string[] = []
  const text = preview(args, room, "", cut)
  return { text, cut }
}

/** `cut: memo, items[3…]` for a preview that left something out; "" for one that shows the whole call */
export const cutNote = ({ cut }: ArgsPreview) => (cut.length === 0 ? "" : `not shown whole: ${cut.join(", ")}`)
