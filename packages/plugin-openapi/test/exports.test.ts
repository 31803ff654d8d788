/** The package's front door: the names other packages import, pinned. */
import { expect, it } from "vitest"
import * as plugin from "../src/index.js"

it("exports exactly these names", () => {
  expect(Object.keys(plugin).sort()).toEqual([
    "OpenApiPlugin",
    "compileSpec",
    "createOpenApiPlugin",
    "openApiConfigView",
    "openApiSourceConfig",
    "openApiSourcePatch",
    "parseSpec",
  ])
})
