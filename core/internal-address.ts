import { BlockList, isIP } from "node:net";

/**
 * Addresses a production service must not be pointed at by a caller: loopback, private networks
 * and link-local ones (the cloud metadata service at 169.254.169.254 among them).
 */
const internalAddresses = new BlockList();
for (const [network, prefix] of [["127.0.0.0", 8], ["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["169.254.0.0", 16], ["100.64.0.0", 10], ["0.0.0.0", 8]] as const) internalAddresses.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [["::1", 128], ["fc00::", 7], ["fe80::", 10], ["::", 128], ["::ffff:0:0", 96]] as const) internalAddresses.addSubnet(network, prefix, "ipv6");

/** An address (IPv4 or IPv6, without brackets) in one of those ranges. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (!family) return false;
  // IPv4-mapped IPv6 addresses are refused whole (the URL parser writes them in hex).
  return internalAddresses.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** A URL's host naming such an address, or a name that is local by convention. */
export function isInternalHost(hostname: string): boolean {
  // "localhost." is localhost: a trailing dot only makes the name absolute.
  const host = hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal")) return true;
  return isInternalAddress(host);
}
