import "server-only";
import { lookup as dnsLookup } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { env } from "@/lib/foundation/env";
import { invalidParameter } from "@/lib/foundation/errors";
import { addressKind } from "@/lib/foundation/addresses/network-address";

/** What the operator allows: WEBHOOKS_ALLOW_LOCAL is both finer settings at once, for development. */
function allowed(): { http: boolean; private: boolean } {
  const settings = env();
  return {
    http: settings.WEBHOOKS_ALLOW_LOCAL || settings.WEBHOOKS_ALLOW_HTTP,
    private: settings.WEBHOOKS_ALLOW_LOCAL || settings.WEBHOOKS_ALLOW_PRIVATE,
  };
}

// Each refusal names every setting that would lift it, so a developer needs one restart, not one per refusal.
const PRIVATE_KIND = "a loopback, private or link-local address";
const ALLOW_PRIVATE = "set WEBHOOKS_ALLOW_LOCAL=true (or WEBHOOKS_ALLOW_PRIVATE=true) to allow local receivers";
const ALLOW_HTTP = "set WEBHOOKS_ALLOW_LOCAL=true (or WEBHOOKS_ALLOW_HTTP=true) to allow plain HTTP to local receivers";

/** Why an address may not be a webhook target ("<address>, a …" and what allows it), or null when it may. */
export function refusedAddress(address: string): string | null {
  const kind = addressKind(address);
  if (kind === "metadata") return `${address}, a cloud metadata address`;
  if (kind === "private" && !allowed().private) return `${address}, ${PRIVATE_KIND}: ${ALLOW_PRIVATE}`;
  return null;
}

/**
 * Why the URL may not be a target, knowing the addresses its host is (none yet for an unresolved name),
 * or null. Plain http:// to a refused local address is one refusal naming the one setting for both.
 */
function targetRefusal(url: URL, addresses: readonly string[], host?: string): string | null {
  const via = host ? `${host} resolves to ` : "";
  const refused = addresses.filter((address) => refusedAddress(address) !== null);
  const metadata = refused.find((address) => addressKind(address) === "metadata");
  if (metadata) return `url is refused: ${via}${refusedAddress(metadata)}.`;
  const local = refused[0];
  const plainHttp = url.protocol === "http:" && !allowed().http;
  if (local && plainHttp) {
    const target = host ? `${host} (${local})` : local;
    return `url is refused: http:// to ${target}, ${PRIVATE_KIND}: set WEBHOOKS_ALLOW_LOCAL=true to allow local receivers (plain HTTP and private addresses, for development).`;
  }
  if (local) return `url is refused: ${via}${refusedAddress(local)}.`;
  if (plainHttp) return `url must use https://: it is http://; ${ALLOW_HTTP}.`;
  return null;
}

/** An absolute http(s) URL without credentials; what the operator allows is checked by the callers. */
function parsedUrl(value: string, param: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParameter(param, "url must be an absolute https:// URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalidParameter(param, "url must use https://.");
  if (url.username || url.password) throw invalidParameter(param, "url must not carry a user name or password.");
  return url;
}

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/** https unless allowed, no credentials, a literal address checked here; hostnames are checked when resolved. */
export function parseTargetUrl(value: string, param = "url"): URL {
  const url = parsedUrl(value, param);
  const literal = bareHost(url);
  const refused = targetRefusal(url, isIP(literal) ? [literal] : []);
  if (refused) throw invalidParameter(param, refused);
  return url;
}

/** Resolves the host and refuses it if ANY address it resolves to is refused (at creation and before each delivery). */
export async function checkTarget(value: string, param = "url"): Promise<void> {
  const url = parsedUrl(value, param);
  const host = bareHost(url);
  if (isIP(host)) {
    parseTargetUrl(value, param);
    return;
  }
  const addresses = await new Promise<string[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, found) =>
      error ? reject(error) : resolve(found.map((entry) => entry.address)),
    ),
  ).catch(() => null);
  // Resolved before the scheme is judged, so http://localhost hears the one setting for both at once.
  const refused = targetRefusal(url, addresses ?? [], host);
  if (refused) throw invalidParameter(param, refused);
  if (!addresses) throw invalidParameter(param, `url's host ${host} does not resolve.`);
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
