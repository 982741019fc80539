import "server-only";
import { isReservedDomainName } from "@/lib/foundation/addresses/test-sender.shared";
import { env } from "@/lib/foundation/env";
import { invalidParameter } from "@/lib/foundation/errors";

const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The host every inbound domain's MX names: INBOUND_MX_HOST, else the host of APP_URL. */
export function inboundMxHost(): string {
  const config = env();
  return config.INBOUND_MX_HOST ?? new URL(config.APP_URL).hostname.toLowerCase();
}

/** `In.Example.COM.` → `in.example.com`: how names are stored and looked up. */
export function normalizeDomain(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, "");
}

/**
 * The name to store, or a 400 naming `name`. The deployment's own names are refused: BOUNCE_DOMAIN (and below it),
 * the MX host and APP_URL's host point at this deployment by the operator's hand, so an MX check there proves nothing
 * about the workspace (docs/inbound.md#dns-and-ports).
 */
export function inboundDomainNameOrThrow(input: string): string {
  const name = normalizeDomain(input);
  if (!DOMAIN_PATTERN.test(name)) throw invalidParameter("name", `"${input}" is not a valid domain name.`);
  if (isReservedDomainName(name)) throw invalidParameter("name", `${name} is reserved for Postwerk's test sender.`);
  const config = env();
  const bounce = config.BOUNCE_DOMAIN;
  if (bounce && (name === bounce || name.endsWith(`.${bounce}`))) {
    throw invalidParameter(
      "name",
      `${name} is this deployment's bounce domain (BOUNCE_DOMAIN): its mail is bounces and reply tokens, never routed. Use a domain of your own.`,
    );
  }
  const own = new Set([inboundMxHost(), new URL(config.APP_URL).hostname.toLowerCase()]);
  if (own.has(name)) {
    throw invalidParameter(
      "name",
      `${name} is this deployment's own host (APP_URL or INBOUND_MX_HOST). Use a domain of your own, e.g. in.${name}.`,
    );
  }
  return name;
}
