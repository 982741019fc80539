import { BlockList, isIP } from "node:net";
import { AppError } from "@/lib/foundation/errors";

// A key's optional restrictions (docs/api.md#key-restrictions); empty lists restrict nothing.

/** `203.0.113.7`, `203.0.113.0/24`, `2001:db8::/32` → the CIDR as stored (a bare address gets /32 or /128); else null. */
export function normalizeCidr(value: string): string | null {
  const [address, bits, extra] = value.trim().split("/");
  if (extra !== undefined || !address) return null;
  const family = isIP(address);
  if (family === 0) return null;
  const max = family === 4 ? 32 : 128;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return null;
  const prefix = bits === undefined ? max : Number(bits);
  if (prefix > max) return null;
  return `${address.toLowerCase()}/${prefix}`;
}

/** True when `ip` lies in one of the CIDRs (an IPv4-mapped IPv6 address matches its IPv4 range). */
export function ipAllowed(cidrs: readonly string[], ip: string): boolean {
  if (cidrs.length === 0) return true;
  const family = isIP(ip);
  if (family === 0) return false;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address, prefix] = cidr.split("/");
    list.addSubnet(address, Number(prefix), isIP(address) === 4 ? "ipv4" : "ipv6");
  }
  return list.check(ip, family === 4 ? "ipv4" : "ipv6");
}

/** An allowed-sender entry: an address (`billing@example.com`) or a domain (`example.com`), lower-cased; else null. */
export function normalizeSenderRule(value: string): string | null {
  const rule = value.trim().toLowerCase();
  const domain = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
  const at = rule.lastIndexOf("@");
  if (at === -1) return domain.test(rule) ? rule : null;
  const local = rule.slice(0, at);
  return local.length > 0 && local.length <= 64 && !/[\s<>"]/.test(local) && domain.test(rule.slice(at + 1))
    ? rule
    : null;
}

/** True when the sender address matches an exact address or its domain (not subdomains) is listed. */
export function senderAllowed(rules: readonly string[], address: string): boolean {
  if (rules.length === 0) return true;
  const lower = address.toLowerCase();
  const domain = lower.slice(lower.lastIndexOf("@") + 1);
  return rules.includes(lower) || rules.includes(domain);
}

/** 422 naming `from` (or the batch element's `emailMessages[3].from`) when the key may not send as this sender. */
export function assertKeyMaySendAs(rules: readonly string[] | undefined, address: string, param: string): void {
  if (!rules || senderAllowed(rules, address)) return;
  throw new AppError(
    "EMAIL_MESSAGE_INVALID_SENDER_ERROR",
    `This API key may send only from ${rules.join(", ")}; ${address} is not one of them.`,
    { param },
  );
}
