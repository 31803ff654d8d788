import { buildAll } from "../scripts/build.mjs"

export default async function setup() {
  await buildAll()
}
