import { expect, test } from "vitest"
import * as entry from "../src/index.js"

test("the package entry exports exactly its named surface", () => {
  expect(Object.keys(entry).sort()).toEqual(["createQuickJsRuntime", "defaultMemoryCapBytes", "loadQuickJsModule", "runScript"])
})
