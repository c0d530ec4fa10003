import { createServer, type Server } from "node:http";
import type { LookupAddress } from "node:dns";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedDispatcher, guardedLookup, outboundAddressVerdict, refusedOutboundHost, type Resolver } from "../../core/outbound-address.js";

/** Addresses any outbound call (webhook, OCTO supplier) may reach: public unicast, bare or embedded in IPv6. */
const PUBLIC = [
  "8.8.8.8",
  "1.1.1.1",
  "140.82.112.3",
  "2606:4700:4700::1111",
  "2a00:1450:4007:80e::200e",
  "::ffff:8.8.8.8",
  "::ffff:0:808:808",
  "::808:808",
  "64:ff9b::808:808",
  "64:ff9b:1::101:101",
  "2002:808:808::1",
  // Teredo: server 8.8.8.8, client 8.8.8.8 (stored inverted).
  "2001:0:808:808::f7f7:f7f7",
];

/** Every form that reaches the service's own network, a reserved range, or no single host: [address, the range named]. */
const REFUSED: [string, RegExp][] = [
  ["0.0.0.0", /unspecified/],
  ["0.1.2.3", /unspecified/],
  ["10.1.2.3", /private/],
  ["100.64.0.1", /carrierGradeNat/],
  ["127.0.0.1", /loopback/],
  ["127.255.255.254", /loopback/],
  ["169.254.169.254", /linkLocal/],
  ["172.16.0.1", /private/],
  ["172.31.255.255", /private/],
  ["192.0.0.9", /reserved/],
  ["192.0.2.1", /reserved/],
  ["192.31.196.1", /as112/],
  ["192.52.193.1", /amt/],
  ["192.88.99.1", /reserved/],
  ["192.168.1.1", /private/],
  ["192.175.48.1", /as112/],
  ["198.18.0.1", /reserved/],
  ["198.51.100.1", /reserved/],
  ["203.0.113.1", /reserved/],
  ["224.0.0.1", /multicast/],
  ["239.255.255.250", /multicast/],
  ["240.0.0.1", /reserved/],
  ["255.255.255.255", /broadcast/],
  ["::", /unspecified/],
  ["::1", /loopback/],
  ["::ffff:127.0.0.1", /IPv4-mapped 127\.0\.0\.1 \(loopback\)/],
  ["::ffff:a9fe:a9fe", /IPv4-mapped 169\.254\.169\.254/],
  ["::ffff:0:7f00:1", /IPv4-translated 127\.0\.0\.1/],
  ["::7f00:1", /IPv4-compatible 127\.0\.0\.1/],
  ["::a00:1", /IPv4-compatible 10\.0\.0\.1/],
  ["64:ff9b::a9fe:a9fe", /NAT64 169\.254\.169\.254 \(linkLocal\)/],
  ["64:ff9b::7f00:1", /NAT64 127\.0\.0\.1/],
  ["64:ff9b:1::a00:1", /NAT64 10\.0\.0\.1/],
  ["2002:7f00:1::", /6to4 127\.0\.0\.1/],
  ["2002:a9fe:a9fe::1", /6to4 169\.254\.169\.254/],
  ["2001:0:808:808::80ff:fffe", /Teredo 127\.0\.0\.1/],
  ["2001:0:7f00:1::f7f7:f7f7", /Teredo 127\.0\.0\.1/],
  ["fc00::1", /uniqueLocal/],
  ["fd12:3456::1", /uniqueLocal/],
  ["fe80::1", /linkLocal/],
  ["fec0::1", /deprecatedSiteLocal/],
  ["ff02::1", /multicast/],
  ["ff0e::1", /multicast/],
  ["100::1", /discard/],
  ["100:0:0:1::1", /unallocated/],
  ["2001:2::1", /benchmarking/],
  ["2001:db8::1", /reserved/],
  ["2001:10::1", /deprecatedOrchid/],
  ["2001:20::1", /orchid2/],
  ["3fff::1", /reserved/],
  ["5f00::1", /segmentRouting/],
  ["2620:4f:8000::1", /as112v6/],
  ["4000::1", /unallocated/],
];

describe("the outbound address policy", () => {
  it.each(PUBLIC)("lets %s through", (address) => {
    expect(outboundAddressVerdict(address).allowed).toBe(true);
    expect(refusedOutboundHost(address.includes(":") ? `[${address}]` : address)).toBeUndefined();
  });

  it.each(REFUSED)("refuses %s, naming its range", (address, range) => {
    const verdict = outboundAddressVerdict(address);
    expect(verdict.allowed).toBe(false);
    expect(verdict.range).toMatch(range);
    expect(refusedOutboundHost(address.includes(":") ? `[${address}]` : address)).toMatch(/not a public address/);
  });

  it("judges a URL's host as the URL parser writes it (decimal, hexadecimal and mapped forms of loopback)", () => {
    for (const url of ["http://2130706433/", "http://0x7f.1/", "http://[::ffff:127.0.0.1]/", "http://[0:0:0:0:0:ffff:7f00:0001]/", "http://0251.0376.0251.0376/"]) {
      expect(refusedOutboundHost(new URL(url).hostname), url).toMatch(/not a public address/);
    }
    expect(refusedOutboundHost(new URL("https://[2606:4700:4700::1111]/").hostname)).toBeUndefined();
  });

  it("refuses names that are local by convention, and leaves every other name to its resolution", () => {
    for (const name of ["localhost", "LOCALHOST.", "api.localhost", "printer.local", "metadata.google.internal", "nas.home.arpa"]) {
      expect(refusedOutboundHost(name), name).toMatch(/local name/);
    }
    for (const name of ["hooks.example.com", "localhost.example.com", "internal.example.org", "local-events.example.net"]) {
      expect(refusedOutboundHost(name), name).toBeUndefined();
    }
  });
});

/** A resolver answering from a table, as DNS would; no query leaves the machine. */
const tableResolver =
  (table: Record<string, string[]>): Resolver =>
  (hostname, callback) => {
    const addresses = table[hostname];
    if (!addresses) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []);
    callback(null, addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));
  };

const lookUp = (lookup: ReturnType<typeof guardedLookup>, hostname: string, options: { all?: boolean; family?: number } = {}) =>
  new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>((resolve) =>
    (lookup as unknown as (h: string, o: object, cb: (e: NodeJS.ErrnoException | null, a: string | LookupAddress[], f?: number) => void) => void)(hostname, options, (error, address, family) =>
      resolve({ error, address, family }),
    ),
  );

describe("names at connection time, with an injected resolver", () => {
  const resolve = tableResolver({
    "hooks.example.com": ["140.82.112.3", "2606:4700:4700::1111"],
    "v6.example.com": ["2606:4700:4700::1111"],
    "rebound.example.com": ["140.82.112.3", "10.0.0.7"],
    "metadata.example.com": ["169.254.169.254"],
    "nat64.example.com": ["64:ff9b::a9fe:a9fe"],
    "mapped.example.com": ["::ffff:127.0.0.1"],
  });

  it("hands over every address of a name that resolves only to public ones", async () => {
    const lookup = guardedLookup({ allowPrivate: false, resolve });
    expect(await lookUp(lookup, "hooks.example.com", { all: true })).toMatchObject({ error: null, address: [{ address: "140.82.112.3", family: 4 }, { address: "2606:4700:4700::1111", family: 6 }] });
    expect(await lookUp(lookup, "hooks.example.com")).toMatchObject({ error: null, address: "140.82.112.3", family: 4 });
    expect(await lookUp(lookup, "hooks.example.com", { family: 6 })).toMatchObject({ error: null, address: "2606:4700:4700::1111", family: 6 });
  });

  it("refuses a name when any of its addresses is not public, whichever comes first", async () => {
    const lookup = guardedLookup({ allowPrivate: false, resolve });
    for (const [name, message] of [
      ["rebound.example.com", /resolves to 10\.0\.0\.7, not a public address \(private\)/],
      ["metadata.example.com", /169\.254\.169\.254.*linkLocal/],
      ["nat64.example.com", /NAT64 169\.254\.169\.254/],
      ["mapped.example.com", /IPv4-mapped 127\.0\.0\.1/],
    ] as const) {
      const answer = await lookUp(lookup, name, { all: true });
      expect(answer.error?.message, name).toMatch(message);
      expect(answer.error?.code).toBe("EOUTBOUNDREFUSED");
    }
    // A family filter that leaves nothing is "not found", not an empty success.
    expect((await lookUp(lookup, "v6.example.com", { family: 4 })).error?.code).toBe("ENOTFOUND");
  });

  it("lets private answers through only when private targets are allowed", async () => {
    const lookup = guardedLookup({ allowPrivate: true, resolve });
    expect(await lookUp(lookup, "metadata.example.com")).toMatchObject({ error: null, address: "169.254.169.254" });
  });
});

describe("fetch under the policy", () => {
  let server: Server;
  let port: number;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      requests++;
      response.end("reached");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const fetchWith = async (url: string, dispatcher: ReturnType<typeof guardedDispatcher>) => {
    try {
      const response = await fetch(url, { dispatcher } as RequestInit);
      return { status: response.status, body: await response.text() };
    } catch (error) {
      return { error: (error as { cause?: Error }).cause };
    }
  };

  it("refuses an address literal and a name resolving to loopback before connecting", async () => {
    const dispatcher = guardedDispatcher({ allowPrivate: false, resolve: tableResolver({ "supplier.example.com": ["127.0.0.1"] }) });
    const literal = await fetchWith(`http://127.0.0.1:${port}/`, dispatcher);
    expect(literal.error).toMatchObject({ code: "EOUTBOUNDREFUSED", message: expect.stringMatching(/127\.0\.0\.1 is not a public address \(loopback\)/) });
    const named = await fetchWith(`http://supplier.example.com:${port}/`, dispatcher);
    expect(named.error).toMatchObject({ code: "EOUTBOUNDREFUSED", message: expect.stringMatching(/supplier\.example\.com resolves to 127\.0\.0\.1/) });
    expect(requests).toBe(0);
    await dispatcher.close();
  });

  it("connects through the same dispatcher where the policy allows the address", async () => {
    const dispatcher = guardedDispatcher({ allowPrivate: true, resolve: tableResolver({ "supplier.example.com": ["127.0.0.1"] }) });
    expect(await fetchWith(`http://supplier.example.com:${port}/`, dispatcher)).toEqual({ status: 200, body: "reached" });
    expect(requests).toBe(1);
    await dispatcher.close();
  });
});
