import { expect, test } from "vitest"
import * as entry from "../src/index.js"
import * as nodeEntry from "../src/node/index.js"

test("the package entry exports exactly its named surface", () => {
  expect(Object.keys(entry).sort()).toEqual([
    "createQuickJsRuntime",
    "defaultMemoryCapBytes",
    "interruptCalibration",
    "loadQuickJsModule",
    "maxStackBytes",
    "runScript",
  ])
})

test("the Node entry exports exactly its named surface", () => {
  expect(Object.keys(nodeEntry).sort()).toEqual(["createWorkerPoolRuntime", "maxStackBytes", "startWorkerPoolRuntime"])
})
