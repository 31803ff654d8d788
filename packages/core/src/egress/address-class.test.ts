/** The egress classifier, table-driven: addresses as DNS gives them, and URL hosts as the URL parser hands them on. */
import { describe, expect, it } from "vitest"
import { classifyAddress, ipLiteral, parseIpv6 } from "./address-class.js"

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["93.184.216.34", "public"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["100.64.0.1", "shared"],
    ["100.100.100.200", "shared"], // Alibaba's metadata service sits in CGNAT space
    ["100.128.0.1", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "metadata"],
    ["169.254.1.1", "link-local"],
    ["168.63.129.16", "metadata"],
    ["172.15.255.255", "public"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.0.0.192", "reserved"], // Oracle Cloud metadata
    ["192.168.1.1", "private"],
    ["198.18.0.1", "reserved"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["[::ffff:7f00:1]", "loopback"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:8.8.8.8", "public"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "metadata"], // NAT64 of 169.254.169.254
    ["64:ff9b::808:808", "public"],
    ["2002:7f00:1::", "loopback"], // 6to4 of 127.0.0.1
    ["fc00::1", "private"],
    ["fd00:ec2::254", "private"], // AWS's IPv6 metadata service
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fec0::1", "private"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["2001:0::1", "reserved"], // Teredo
    ["2606:4700:4700::1111", "public"],
    ["2a00:1450:4001:800::200e", "public"],
    ["localhost", "invalid"],
    ["127.1", "invalid"], // not a form DNS gives; the URL parser turns it into 127.0.0.1 first
    ["1:2:3:4:5:6:7:8:9", "invalid"],
    ["1::2::3", "invalid"],
    ["::ffff:300.1.1.1", "invalid"],
  ])("%s is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected)
  })
})

describe("URL hosts as they reach the guard", () => {
  // WHATWG URL parsing normalises every IPv4 spelling to dotted decimal and IPv6 to its compressed form,
  // so the guard sees `127.0.0.1` or `[::ffff:7f00:1]`, never `0x7f.1`; names stay names and go to DNS.
  it.each([
    ["http://127.0.0.1:8080/mcp", "127.0.0.1", "loopback"],
    ["http://0x7f.1/", "127.0.0.1", "loopback"],
    ["http://2130706433/", "127.0.0.1", "loopback"],
    ["http://0177.0.0.1/", "127.0.0.1", "loopback"],
    ["http://127.1/", "127.0.0.1", "loopback"],
    ["http://0/", "0.0.0.0", "unspecified"],
    ["http://0xa9fea9fe/latest/meta-data", "169.254.169.254", "metadata"],
    ["http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]", "loopback"],
    ["http://[0:0:0:0:0:0:0:1]/", "[::1]", "loopback"],
    ["http://[::]/", "[::]", "unspecified"],
    ["http://[fe80::1]/", "[fe80::1]", "link-local"],
  ])("%s reaches the guard as %s, %s", (url, hostname, expected) => {
    const host = new URL(url).hostname
    expect(host).toBe(hostname)
    expect(classifyAddress(ipLiteral(host)!)).toBe(expected)
  })

  it.each([
    "http://localhost./",
    "http://localhost/",
    "http://foo.localhost/",
    "http://metadata.google.internal/",
    "http://127.0.0.1.nip.io/",
  ])(
    "%s is a name, not an IP literal: the guard judges it (localhost names at once, others by what they resolve to)",
    (url) => {
      expect(ipLiteral(new URL(url).hostname)).toBeNull()
    },
  )
})

it("parseIpv6 expands compressed forms", () => {
  expect(parseIpv6("1::8")).toEqual([1, 0, 0, 0, 0, 0, 0, 8])
  expect(parseIpv6("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304])
  expect(parseIpv6("1:2:3:4:5:6:7::")).toEqual([1, 2, 3, 4, 5, 6, 7, 0])
})
