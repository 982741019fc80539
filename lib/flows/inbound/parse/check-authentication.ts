import "server-only";
import { authenticate, type AuthenticateResult, type AuthStatus } from "mailauth";
import { createResolver } from "@/lib/domain/domains/verify-domain";
import { env } from "@/lib/foundation/env";
import { cachedResolver } from "./dns-cache";
import type { AuthResult, AuthVerdict } from "./types";

export type DnsResolve = (name: string, rrtype: string) => Promise<unknown>;

export interface CheckAuthenticationOptions {
  /** Answers DNS questions as node:dns's `resolve(name, rrtype)`; default: DNS_SERVERS, else the system's. */
  resolver?: DnsResolve;
  /** The whole check's bound: the sender waits for our answer to DATA meanwhile. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * SPF, DKIM, DMARC and ARC of a received mail, checked by mailauth against the SMTP envelope. Never throws:
 * a DNS failure, a timeout or any error of the check is a temperror (the mail is kept; routes decide).
 */
export async function checkAuthentication(
  raw: Buffer,
  envelope: { ip: string; helo: string; mailFrom: string },
  options: CheckAuthenticationOptions = {},
): Promise<AuthVerdict> {
  const resolver = options.resolver ?? defaultResolver();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error("the authentication check timed out")),
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
  });
  try {
    const result = await Promise.race([
      authenticate(raw, {
        ip: envelope.ip,
        helo: envelope.helo || undefined,
        sender: envelope.mailFrom || undefined,
        resolver: resolver as NonNullable<Parameters<typeof authenticate>[1]>["resolver"],
        disableBimi: true, // a logo is no verdict
      }),
      timeout,
    ]);
    return verdictOf(result);
  } catch (error) {
    return {
      spf: "temperror",
      dkim: "temperror",
      dmarc: "temperror",
      arc: "temperror",
      dmarcPolicy: null,
      details: { error: (error as Error).message },
    };
  } finally {
    clearTimeout(timer);
  }
}

let shared: { servers: string | undefined; resolve: DnsResolve } | null = null;

/**
 * One resolver for every mail while DNS_SERVERS stays the same: a Resolver opens a c-ares channel of its own, and one
 * per mail was a measurable share of the listener's CPU (docs/benchmarks.md, bench:inbound). Its answers are reused
 * for a minute (dns-cache.ts).
 */
function defaultResolver(): DnsResolve {
  const servers = env().DNS_SERVERS;
  if (!shared || shared.servers !== servers) {
    const resolver = createResolver();
    shared = { servers, resolve: cachedResolver((name, rrtype) => resolver.resolve(name, rrtype)) };
  }
  return shared.resolve;
}

// Several DKIM signatures: one pass is enough (RFC 6376 §6.1); otherwise the most telling failure.
const DKIM_ORDER: AuthResult[] = ["pass", "fail", "permerror", "temperror", "policy", "softfail", "neutral", "none"];

function verdictOf(result: AuthenticateResult): AuthVerdict {
  const signatures = result.dkim.results ?? [];
  const dkimResults = signatures.map((entry) => normalize(entry.status));
  const dkim = DKIM_ORDER.find((candidate) => dkimResults.includes(candidate)) ?? "none";
  const spf = result.spf ? normalize(result.spf.status) : "none";
  const dmarc = result.dmarc ? normalize(result.dmarc.status) : "none";
  const arc = result.arc ? normalize(result.arc.status) : "none";
  return {
    spf,
    dkim,
    dmarc,
    arc,
    dmarcPolicy: result.dmarc ? policyOf(result.dmarc.policy) : null,
    details: {
      spf: result.spf ? { domain: result.spf.domain, comment: result.spf.status.comment ?? null } : null,
      dkim: signatures.map((entry) => ({
        domain: entry.signingDomain,
        selector: entry.selector ?? null,
        result: normalize(entry.status),
        aligned: Boolean(entry.status.aligned),
      })),
      dmarc: result.dmarc
        ? { domain: result.dmarc.domain ?? null, p: result.dmarc.p ?? null, sp: result.dmarc.sp ?? null }
        : null,
      arc: result.arc ? { instance: result.arc.i || null } : null,
      authenticationResults: result.headers.trim(),
    },
  };
}

function normalize(status: AuthStatus | undefined): AuthResult {
  const result = status?.result;
  if (result === "temperr") return "temperror";
  return result === undefined || result === "skipped" ? "none" : result;
}

function policyOf(policy: string | undefined): AuthVerdict["dmarcPolicy"] {
  return policy === "none" || policy === "quarantine" || policy === "reject" ? policy : null;
}
