/**
 * One pass over a JSON-RPC message's bytes as they arrive, without parsing it: how many keys and elements it holds
 * (each `{`, `[` and `,` outside a string, close to its members and elements counted once each) and the text of
 * its top-level `id`. It lets a message too large to parse on the main thread be answered by its id instead.
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d
/** an id longer than this is not kept: a JSON-RPC id is a number or a short string */
const MAX_ID_BYTES = 256
const decoder = new TextDecoder()

export interface JsonScan {
  /** reads the next bytes of the message */
  push(bytes: Uint8Array): void
  /** keys and elements so far */
  readonly nodes: number
  /** the top-level "id" as parsed JSON (a number or a string), once it was read whole */
  id(): string | number | undefined
  /** ready for the next message */
  reset(): void
}

export const createJsonScan = (): JsonScan => {
  let nodes = 0
  let depth = 0
  let inString = false
  let escaped = false
  /** at depth 1, between `{` or `,` and the key's `:` */
  let expectingKey = false
  let key: number[] | undefined
  let lastKey = ""
  let idBytes: number[] | undefined
  let idText: string | undefined

  const endId = () => {
    if (idBytes && idBytes.length <= MAX_ID_BYTES) idText = decoder.decode(new Uint8Array(idBytes))
    idBytes = undefined
  }

  return {
    get nodes() {
      return nodes
    },
    push(bytes) {
      for (let i = 0; i < bytes.length; i++) {
        const byte = bytes[i]!
        if (inString) {
          if (key) key.push(byte)
          else if (idBytes && idBytes.length <= MAX_ID_BYTES) idBytes.push(byte)
          if (escaped) escaped = false
          else if (byte === BACKSLASH) escaped = true
          else if (byte === QUOTE) {
            inString = false
            if (key) {
              key.pop()
              lastKey = decoder.decode(new Uint8Array(key))
              key = undefined
            }
          }
          continue
        }
        switch (byte) {
          case QUOTE:
            inString = true
            if (depth === 1 && expectingKey) key = []
            else if (idBytes && idBytes.length <= MAX_ID_BYTES) idBytes.push(byte)
            break
          case OPEN_BRACE:
          case OPEN_BRACKET:
            nodes++
            depth++
            if (depth === 1) expectingKey = byte === OPEN_BRACE
            break
          case CLOSE_BRACE:
          case CLOSE_BRACKET:
            if (depth === 1) endId()
            depth--
            break
          case COMMA:
            nodes++
            if (depth === 1) {
              endId()
              expectingKey = true
            }
            break
          case COLON:
            if (depth === 1 && expectingKey) {
              expectingKey = false
              if (lastKey === "id") idBytes = []
            }
            break
          default:
            if (idBytes && depth === 1 && byte > 0x20 && idBytes.length <= MAX_ID_BYTES) idBytes.push(byte)
        }
      }
    },
    id() {
      if (idText === undefined) return undefined
      try {
        const id: unknown = JSON.parse(idText)
        return typeof id === "string" || typeof id === "number" ? id : undefined
      } catch {
        return undefined
      }
    },
    reset() {
      nodes = 0
      depth = 0
      inString = false
      escaped = false
      expectingKey = false
      key = undefined
      lastKey = ""
      idBytes = undefined
      idText = undefined
    },
  }
}

const encoder = new TextEncoder()

/** the keys and elements of a JSON text (as `createJsonScan` counts them) */
export const countJsonNodes = (text: string): number => {
  const scan = createJsonScan()
  scan.push(encoder.encode(text))
  return scan.nodes
}
