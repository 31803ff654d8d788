import { expect, it } from "vitest"
import { closestNames } from "./suggest.js"

const paths = ["contract.echo", "contract.get-sum", "contract.camelCaseTool", "demo.weather", "demo.greet"]

it.each([
  ["a typo", "contract.ecko", ["contract.echo"]],
  ["case and separators do not matter", "contract.getSum", ["contract.get-sum"]],
  ["a prefix", "contract.camel", ["contract.camelCaseTool"]],
  ["nothing close", "billing.refund", []],
])("%s", (_name, target, expected) => {
  expect(closestNames(target, paths)).toEqual(expected)
})

it("a huge name from a script gets no suggestions instead of quadratic work", () => {
  const many = Array.from({ length: 1000 }, (_, i) => `ns.tool_${i}`)
  expect(closestNames(`ns.${"q".repeat(100_000)}`, many)).toEqual([])
  expect(closestNames("ns.tool_1x", many).length).toBeGreaterThan(0)
})
