import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector } from "undici";

/**
 * Where the service may send a request a caller chose (a webhook endpoint, an OCTO supplier
 * system): public unicast addresses only. ipaddr.js classifies an address against the IANA
 * special-purpose registries (its `range()`); everything it does not call `unicast` is refused,
 * the ranges that some registries mark globally reachable (AS112, AMT, PCP and TURN anycast) too:
 * no webhook receiver or supplier lives there. IPv6 outside 2000::/3 is not yet allocated for
 * unicast, so it is refused whatever ipaddr.js says (site-local fec0::/10, 100:0:0:1::/64).
 *
 * IPv6 forms that carry an IPv4 address reach that IPv4 host (through the kernel, a NAT64
 * gateway, a 6to4 or Teredo relay), so they are judged by the IPv4 they embed: 8.8.8.8 mapped,
 * translated or embedded passes, 169.254.169.254 under any of them does not.
 */

export interface OutboundVerdict {
  allowed: boolean;
  /** ipaddr.js's name of the range, or the embedding and the embedded address's range. */
  range: string;
}

const globalUnicast = ipaddr.parseCIDR("2000::/3");
/** RFC 6052 translation prefixes (64:ff9b::/96 well-known, 64:ff9b:1::/48 local use): the IPv4 address is the last 32 bits (the /96 layout, which DNS64 uses). */
const nat64Prefixes = [ipaddr.parseCIDR("64:ff9b::/96"), ipaddr.parseCIDR("64:ff9b:1::/48")];
/** IPv4-compatible (::a.b.c.d, deprecated) and IPv4-translated (::ffff:0:a.b.c.d, RFC 6145). */
const compatiblePrefix = ipaddr.parseCIDR("::/96");
const translatedPrefix = ipaddr.parseCIDR("::ffff:0:0:0/96");

function ipv4From(bytes: number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes);
}

/** The IPv4 addresses an IPv6 address hands its packets to, with the name of the embedding; none for plain IPv6. */
function embeddedIpv4(address: ipaddr.IPv6): { form: string; ipv4: ipaddr.IPv4[] } | undefined {
  const bytes = address.toByteArray();
  const last32 = bytes.slice(12, 16);
  if (address.isIPv4MappedAddress()) return { form: "IPv4-mapped", ipv4: [ipv4From(last32)] };
  if (address.match(translatedPrefix)) return { form: "IPv4-translated", ipv4: [ipv4From(last32)] };
  // The unspecified address and loopback sit in ::/96 too, under their own names.
  if (address.match(compatiblePrefix) && address.range() === "unicast") return { form: "IPv4-compatible", ipv4: [ipv4From(last32)] };
  if (nat64Prefixes.some((prefix) => address.match(prefix))) return { form: "NAT64", ipv4: [ipv4From(last32)] };
  if (address.range() === "6to4") return { form: "6to4", ipv4: [ipv4From(bytes.slice(2, 6))] };
  if (address.range() === "teredo") {
    // RFC 4380: the Teredo server's address in clear, the client's (the destination) with every bit inverted.
    return { form: "Teredo", ipv4: [ipv4From(bytes.slice(4, 8)), ipv4From(last32.map((byte) => byte ^ 0xff))] };
  }
  return undefined;
}

function ipv4Verdict(address: ipaddr.IPv4): OutboundVerdict {
  const range = address.range();
  return { allowed: range === "unicast", range };
}

/** Whether the service may connect to this address (IPv4 or IPv6, no brackets); a string that is no address is refused. */
export function outboundAddressVerdict(text: string): OutboundVerdict {
  if (!isIP(text)) return { allowed: false, range: "not an IP address" };
  const address = ipaddr.parse(text);
  if (address.kind() === "ipv4") return ipv4Verdict(address as ipaddr.IPv4);
  const ipv6 = address as ipaddr.IPv6;
  const embedded = embeddedIpv4(ipv6);
  if (embedded) {
    const refused = embedded.ipv4.map((ipv4) => ({ ipv4, verdict: ipv4Verdict(ipv4) })).find((each) => !each.verdict.allowed);
    return refused
      ? { allowed: false, range: `${embedded.form} ${refused.ipv4.toString()} (${refused.verdict.range})` }
      : { allowed: true, range: `${embedded.form} ${embedded.ipv4.map(String).join(", ")}` };
  }
  const range = ipv6.range();
  if (range !== "unicast") return { allowed: false, range };
  if (!ipv6.match(globalUnicast)) return { allowed: false, range: "unallocated" };
  return { allowed: true, range };
}

/** Names that are local by convention (RFC 6761 localhost, RFC 6762 .local, RFC 8375 .home.arpa, ICANN's .internal), whatever a resolver says. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/;

/**
 * Why a URL's host may not be called, or undefined when it may: an address literal outside
 * public unicast, or a name that is local by convention. Any other name is judged again by
 * what it resolves to when it is called (`guardedLookup`).
 */
export function refusedOutboundHost(hostname: string): string | undefined {
  // "localhost." is localhost: a trailing dot only makes the name absolute.
  const host = hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (isIP(host)) {
    const verdict = outboundAddressVerdict(host);
    return verdict.allowed ? undefined : `${host} is not a public address (${verdict.range})`;
  }
  if (LOCAL_NAME.test(host)) return `${host} is a local name`;
  return undefined;
}

/** How names are resolved: dns.lookup with `all`, unless a test hands in its own. */
export type Resolver = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

export interface OutboundPolicy {
  /** Loopback, private and link-local targets allowed: a receiver or supplier on this machine, tests. Never in production. */
  allowPrivate: boolean;
  resolve?: Resolver;
}

/** An error that says the policy, not the network, stopped the call. */
export class OutboundAddressRefused extends Error {
  override name = "OutboundAddressRefused";
  readonly code = "EOUTBOUNDREFUSED";
}

/**
 * A `lookup` for http, net and undici that resolves names and refuses every answer holding an
 * address outside public unicast: a public name can be pointed anywhere, at any time, so the
 * address is judged where the connection is made, not at registration.
 */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  const resolve = policy.resolve ?? systemResolver;
  return ((hostname: string, options: { all?: boolean; family?: number | string }, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    resolve(hostname, (error, found) => {
      if (error) return callback(error, "");
      const wanted = options.family === 4 || options.family === "IPv4" ? 4 : options.family === 6 || options.family === "IPv6" ? 6 : 0;
      const addresses = wanted ? found.filter((each) => each.family === wanted) : found;
      if (!addresses.length) return callback(Object.assign(new Error(`${hostname} has no IPv${wanted} address`), { code: "ENOTFOUND" }), "");
      if (!policy.allowPrivate) {
        for (const each of addresses) {
          const verdict = outboundAddressVerdict(each.address);
          if (!verdict.allowed) return callback(new OutboundAddressRefused(`${hostname} resolves to ${each.address}, not a public address (${verdict.range})`), "");
        }
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  }) as LookupFunction;
}

/**
 * An undici dispatcher for `fetch` under the policy: names through `guardedLookup`, address
 * literals judged before connecting (net skips the lookup for them, and a redirect could name
 * one).
 */
export function guardedDispatcher(policy: OutboundPolicy): Agent {
  const connect = buildConnector({ lookup: guardedLookup(policy) } as buildConnector.BuildOptions);
  return new Agent({
    connect: (options, callback) => {
      const refused = policy.allowPrivate ? undefined : refusedOutboundHost(options.hostname);
      if (refused) return callback(new OutboundAddressRefused(refused), null);
      return connect(options, callback);
    },
  });
}
