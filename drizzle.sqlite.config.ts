import { defineConfig } from "drizzle-kit"

export default defineConfig({
  dialect: "sqlite",
  schema: "./packages/core/src/catalog/schema-sqlite.ts",
  out: "./drizzle/sqlite",
})
