import "server-only";
import { lookup as dnsLookup } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { env } from "@/lib/foundation/env";
import { invalidParameter } from "@/lib/foundation/errors";

/** Refused whatever the operator allows: the cloud metadata services. */
const METADATA = new BlockList();
METADATA.addAddress("169.254.169.254", "ipv4");
METADATA.addAddress("fd00:ec2::254", "ipv6");

/** Loopback, private, link-local, CGNAT, unspecified, multicast and reserved ranges (IPv4 and IPv6). */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
  ["2001:db8::", 32],
] as const) {
  PRIVATE.addSubnet(network, prefix, "ipv6");
}

/** Why an address may not be a webhook target, or null when it may. IPv4-mapped IPv6 is checked as IPv4. */
export function refusedAddress(address: string): string | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1] : address;
  const family = isIP(ip) === 6 ? "ipv6" : "ipv4";
  if (METADATA.check(ip, family)) return `${address} is a cloud metadata address`;
  if (!env().WEBHOOKS_ALLOW_PRIVATE && PRIVATE.check(ip, family)) {
    return `${address} is a loopback, private or link-local address (WEBHOOKS_ALLOW_PRIVATE=true allows it)`;
  }
  return null;
}

/** https unless allowed, no credentials, a literal address checked here; hostnames are checked when resolved. */
export function parseTargetUrl(value: string, param = "url"): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParameter(param, "url must be an absolute https:// URL.");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && env().WEBHOOKS_ALLOW_HTTP)) {
    throw invalidParameter(
      param,
      "url must use https:// (http:// only when the operator sets WEBHOOKS_ALLOW_HTTP=true).",
    );
  }
  if (url.username || url.password) throw invalidParameter(param, "url must not carry a user name or password.");
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(literal)) {
    const refused = refusedAddress(literal);
    if (refused) throw invalidParameter(param, `url is refused: ${refused}.`);
  }
  return url;
}

/** Resolves the host and refuses it if ANY address it resolves to is refused (at creation and before each delivery). */
export async function checkTarget(value: string, param = "url"): Promise<void> {
  const url = parseTargetUrl(value, param);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return;
  const addresses = await new Promise<string[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, found) =>
      error ? reject(error) : resolve(found.map((entry) => entry.address)),
    ),
  ).catch(() => {
    throw invalidParameter(param, `url's host ${host} does not resolve.`);
  });
  for (const address of addresses) {
    const refused = refusedAddress(address);
    if (refused) throw invalidParameter(param, `url is refused: ${host} resolves to ${refused}.`);
  }
}

/** The socket connects to the address this lookup checked, so a DNS answer changed between check and connect cannot slip through. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    for (const entry of addresses) {
      const refused = refusedAddress(entry.address);
      if (refused)
        return callback(
          Object.assign(new Error(`refused target: ${hostname} resolves to ${refused}`), { code: "EREFUSEDTARGET" }),
          "",
          0,
        );
    }
    if (options.all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};
