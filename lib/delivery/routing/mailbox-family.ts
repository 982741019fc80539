import "server-only";
import type { MailboxFamily } from "@/db/schema/providers";
import { createResolver } from "@/lib/domain/domains/verify-domain";
import { processSingleton } from "@/lib/foundation/process-singleton";

/** The families' own domains: known without a lookup. */
const KNOWN_DOMAINS: Record<string, MailboxFamily> = {
  "gmail.com": "gmail",
  "googlemail.com": "gmail",
  "outlook.com": "microsoft",
  "hotmail.com": "microsoft",
  "live.com": "microsoft",
  "msn.com": "microsoft",
  "yahoo.com": "yahoo",
  "ymail.com": "yahoo",
  "rocketmail.com": "yahoo",
  "aol.com": "yahoo",
  "icloud.com": "apple",
  "me.com": "apple",
  "mac.com": "apple",
};

/** MX hosts by suffix: a company domain on Google Workspace or Microsoft 365 is that family too. */
const MX_SUFFIXES: Array<[string, MailboxFamily]> = [
  ["google.com", "gmail"],
  ["googlemail.com", "gmail"],
  ["outlook.com", "microsoft"],
  ["hotmail.com", "microsoft"],
  ["yahoodns.net", "yahoo"],
  ["icloud.com", "apple"],
  ["apple.com", "apple"],
];

const FOUND_MS = 60 * 60 * 1000;
const FAILED_MS = 60 * 1000;

const cache = processSingleton(
  "routing.mailbox-families",
  () => new Map<string, { family: Promise<MailboxFamily | null>; until: number }>(),
);

/** A family's national domains (hotmail.fr, yahoo.co.uk, outlook.de) by their first label. */
function knownFamily(domain: string): MailboxFamily | null | undefined {
  if (KNOWN_DOMAINS[domain]) return KNOWN_DOMAINS[domain];
  const label = domain.split(".")[0];
  if (["hotmail", "outlook", "live"].includes(label) && domain.split(".").length <= 3) return "microsoft";
  if (["yahoo"].includes(label) && domain.split(".").length <= 3) return "yahoo";
  return undefined;
}

export function familyOfExchange(exchange: string): MailboxFamily | null {
  const host = exchange.toLowerCase().replace(/\.$/, "");
  for (const [suffix, family] of MX_SUFFIXES) if (host === suffix || host.endsWith(`.${suffix}`)) return family;
  return null;
}

/**
 * Each domain's family: its own name, else its MX hosts (DNS_SERVERS when set), cached an hour (a failed lookup a
 * minute: it then counts as no family). Without `lookup`, only the families' own domains are known.
 */
export async function mailboxFamilies(
  domains: string[],
  options: { lookup: boolean } = { lookup: true },
): Promise<Map<string, MailboxFamily | null>> {
  const families = new Map<string, MailboxFamily | null>();
  await Promise.all(
    [...new Set(domains)].map(async (domain) => {
      const known = knownFamily(domain);
      families.set(domain, known !== undefined ? known : options.lookup ? await lookedUp(domain) : null);
    }),
  );
  return families;
}

function lookedUp(domain: string): Promise<MailboxFamily | null> {
  const now = Date.now();
  const cached = cache.get(domain);
  if (cached && cached.until > now) return cached.family;
  if (cache.size > 100_000) cache.clear();
  const entry = { family: Promise.resolve<MailboxFamily | null>(null), until: now + FOUND_MS };
  entry.family = createResolver()
    .resolveMx(domain)
    .then(
      (records) => {
        const first = records.sort((a, b) => a.priority - b.priority)[0];
        return first ? familyOfExchange(first.exchange) : null;
      },
      () => {
        entry.until = Date.now() + FAILED_MS;
        return null;
      },
    );
  cache.set(domain, entry);
  return entry.family;
}

/** Tests: forget what was looked up. */
export function forgetMailboxFamilies(): void {
  cache.clear();
}
