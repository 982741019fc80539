import "server-only";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { addressKind } from "@/lib/foundation/addresses/network-address";
import { env } from "@/lib/foundation/env";
import { invalidParameter } from "@/lib/foundation/errors";

const ALLOW = "set PROVIDERS_ALLOW_PRIVATE=true to allow relays and stand-ins on private addresses";

/**
 * Why a workspace's connection may not reach this host, or null: never a cloud metadata address, and no loopback or
 * private address unless the operator allows it. Checked on every write and again when the connection is built.
 */
export async function hostRefusal(host: string): Promise<string | null> {
  const bare = host.replace(/^\[|\]$/g, "");
  const addresses = isIP(bare)
    ? [bare]
    : await lookup(bare, { all: true }).then(
        (found) => found.map((entry) => entry.address),
        () => null,
      );
  if (!addresses) return `${bare} does not resolve`;
  for (const address of addresses) {
    const kind = addressKind(address);
    if (kind === "metadata") return `${bare} is ${address}, a cloud metadata address`;
    if (kind === "private" && !env().PROVIDERS_ALLOW_PRIVATE)
      return `${bare} is ${address}, a loopback or private address: ${ALLOW}`;
  }
  return null;
}

/** The URL parsed with the protocols it may have, without credentials, its host allowed; else 400 naming `param`. */
export async function checkConnectionUrl(value: string, param: string, protocols: string[]): Promise<URL> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParameter(param, `${param} must be a URL starting with ${protocols.join(" or ")}//.`);
  }
  if (!protocols.includes(url.protocol))
    throw invalidParameter(param, `${param} must start with ${protocols.join(" or ")}//, not ${url.protocol}//.`);
  if (url.username || url.password)
    throw invalidParameter(param, `${param} must not carry a user name or password: give them as user and password.`);
  const refused = await hostRefusal(url.hostname);
  if (refused) throw invalidParameter(param, `${param} is refused: ${refused}.`);
  return url;
}
