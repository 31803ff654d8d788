import { expect, it } from "vitest"
import { displayDb } from "./display-db.js"

it("masks a URL's password and its password= query values, and leaves the rest as written", () => {
  expect(displayDb("postgres://u:s3cret@db.internal:5432/switchboard")).toBe(
    "postgres://u:<redacted>@db.internal:5432/switchboard",
  )
  // an unencoded @ or / in a password: everything up to the last @ before the query is userinfo
  expect(displayDb("postgresql://u:p@ss/w@h/d?sslmode=require")).toBe("postgresql://u:<redacted>@h/d?sslmode=require")
  expect(displayDb("postgres://h/d?user=u&password=s3cret&sslpassword=k3y#x")).toBe(
    "postgres://h/d?user=u&password=<redacted>&sslpassword=<redacted>#x",
  )
  expect(displayDb("http://admin:s3cret@127.0.0.1:4747")).toBe("http://admin:<redacted>@127.0.0.1:4747")
  // a user without a password is no secret; a path or :memory: is not a URL
  for (const plain of ["postgres://postgres@127.0.0.1:5432/x", "./.switchboard/switchboard.db", ":memory:", ""])
    expect(displayDb(plain)).toBe(plain)
})
