import { expect, it } from "vitest"
import { clientOf } from "./client-address.js"

it("an IPv4 client is its address, however the listener saw it", () => {
  expect(clientOf("127.0.0.1")).toBe("127.0.0.1")
  expect(clientOf("::ffff:10.1.2.3")).toBe("10.1.2.3")
  expect(clientOf("::FFFF:10.1.2.3")).toBe("10.1.2.3")
})

it("an IPv6 client is its /64, however the address is written", () => {
  expect(clientOf("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64")
  expect(clientOf("2001:db8:1:2::9")).toBe("2001:db8:1:2::/64")
  expect(clientOf("2001:0db8:0001:0002:ffff::1")).toBe("2001:db8:1:2::/64")
  expect(clientOf("2001:db8::1")).toBe("2001:db8:0:0::/64")
  expect(clientOf("::1")).toBe("0:0:0:0::/64")
  expect(clientOf("fe80::1%eth0")).toBe("fe80:0:0:0::/64")
  expect(clientOf("64:ff9b::10.0.0.1")).toBe("64:ff9b:0:0::/64")
})

it("a socket already closed has no address: its connections count together", () => {
  expect(clientOf(undefined)).toBe("unknown")
})
