import { defineConfig } from "drizzle-kit"

export default defineConfig({
  dialect: "postgresql",
  schema: "./packages/core/src/catalog/schema-pg.ts",
  out: "./drizzle/postgres",
})
