/**
 * The declared output: the JSON schema of the operation's first success answer (200, then 201 ... 2XX, then
 * `default`'s is not taken: it is usually the error). An answer that is not JSON declares nothing: its data is
 * text or bytes.
 */
import { isRecord, own } from "@switchboard/core"
import { deref } from "../spec/refs.js"
import { at } from "../spec/spec-problem.js"
import type { SchemaConverter } from "../spec/to-json-schema.js"
import { isJsonMediaType } from "./request-body.js"

const successCodes = (responses: Record<string, unknown>) =>
  Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort()

export const deriveOutputSchema = (
  doc: Record<string, unknown>,
  convert: SchemaConverter,
  responses: unknown,
  where: string,
): unknown | null => {
  if (!isRecord(responses)) return null
  for (const code of successCodes(responses)) {
    const place = at(where, code)
    const response = deref(doc, responses[code], place)
    const content = isRecord(response) ? own(response, "content") : undefined
    if (!isRecord(content)) continue
    const mediaType = Object.keys(content).find(isJsonMediaType)
    if (!mediaType) continue
    const media = own(content, mediaType)
    const schema = isRecord(media) ? own(media, "schema") : undefined
    if (schema === undefined) continue
    return convert.convert(schema, at(at(at(place, "content"), mediaType), "schema"))
  }
  return null
}
