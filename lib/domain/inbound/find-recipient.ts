import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { emailMessages, inboundDomains, inboundRoutes } from "@/db/schema";
import { verifyReplyLocalPart } from "@/lib/foundation/crypto/bounce-token";
import { env } from "@/lib/foundation/env";
import { ShortLivedCache } from "@/lib/foundation/short-lived-cache";
import { matchRoute, splitRecipient } from "./match-route";

export interface InboundRecipient {
  address: string; // lower-cased
  workspaceId: string;
  inboundDomainId: string | null; // null for a reply token at BOUNCE_DOMAIN
  route: typeof inboundRoutes.$inferSelect | null;
  mailboxHash: string | null;
  replyToMessageId: string | null; // from a verified r- token (the message exists in that workspace)
}

export type RecipientLookup = { ok: true; recipient: InboundRecipient } | { ok: false; code: number; message: string };

interface DomainEntry {
  id: string;
  workspaceId: string;
  /** Enabled routes only: a disabled route is skipped when matching. */
  routes: Array<typeof inboundRoutes.$inferSelect>;
}

/** A verified domain and its routes by name (null: not one we take mail for), ≤ 1 s old: an MX is probed all day. */
const entries = new ShortLivedCache<DomainEntry | null>();

// The two lookups without a workspace in hand are by nature global: a domain's name (one workspace holds it, unique
// index) and a reply token's message id (its workspace is what the token proves); everything after is scoped by it.
async function domainEntry(db: Executor, name: string): Promise<DomainEntry | null> {
  const load = async () => {
    const [domain] = await db
      .select({ id: inboundDomains.id, workspaceId: inboundDomains.workspaceId })
      .from(inboundDomains)
      .where(and(eq(inboundDomains.name, name), eq(inboundDomains.status, "VERIFIED")));
    if (!domain) return null;
    const routes = await db
      .select()
      .from(inboundRoutes)
      .where(
        and(
          eq(inboundRoutes.workspaceId, domain.workspaceId),
          eq(inboundRoutes.inboundDomainId, domain.id),
          eq(inboundRoutes.enabled, true),
        ),
      )
      .orderBy(asc(inboundRoutes.createdAt), asc(inboundRoutes.id));
    return { ...domain, routes };
  };
  // Inside a caller's transaction the cache is skipped: it may see rows not yet committed.
  return db === (await getDb()) ? entries.get(db, name, load) : load();
}

/** True when mail for this domain is ours to take (a VERIFIED inbound domain): RCPT TO tells relay from unknown by it. */
export async function isInboundDomain(db: Executor, domain: string): Promise<boolean> {
  return (await domainEntry(db, domain.trim().toLowerCase().replace(/\.$/, ""))) !== null;
}

/**
 * Who a RCPT TO address is (docs/inbound.md#routes): a route of a verified inbound domain, most specific first, or a
 * reply token `r-<token>` whose message exists in the domain's workspace (at BOUNCE_DOMAIN: in any workspace). A
 * route whose action is reject answers with its code; anything else is refused: 550 5.7.1 for a domain that is not
 * ours (nothing is relayed), 550 5.1.1 for an address of ours that nothing takes.
 */
export async function findInboundRecipient(db: Executor, address: string): Promise<RecipientLookup> {
  const parts = splitRecipient(address);
  if (!parts) return unknownRecipient(address.trim());
  const lowered = `${parts.local.toLowerCase()}@${parts.domain}`;
  const token = parts.local.toLowerCase().startsWith("r-") ? verifyReplyLocalPart(parts.local) : null;
  if (parts.domain === env().BOUNCE_DOMAIN) {
    const workspaceId = token ? await workspaceOfMessage(db, token) : null;
    if (!workspaceId) return unknownRecipient(lowered);
    return accepted({ address: lowered, workspaceId, inboundDomainId: null, replyToMessageId: token }, null);
  }
  const entry = await domainEntry(db, parts.domain);
  if (!entry) return relayDenied(lowered, parts.domain);
  // A token of another workspace's message links nothing here: the address is then routed like any other.
  const replyToMessageId = token && (await workspaceOfMessage(db, token)) === entry.workspaceId ? token : null;
  const match = matchRoute(entry.routes, parts.local);
  if (!match && !replyToMessageId) return unknownRecipient(lowered);
  const reject = match?.route.actions.find((action) => action.type === "reject");
  if (reject) return { ok: false, code: reject.code, message: withEnhancedStatus(reject.code, reject.message) };
  const base = { address: lowered, workspaceId: entry.workspaceId, inboundDomainId: entry.id, replyToMessageId };
  return accepted(base, match);
}

function accepted(
  base: Omit<InboundRecipient, "route" | "mailboxHash">,
  match: { route: InboundRecipient["route"]; mailboxHash: string | null } | null,
): RecipientLookup {
  return { ok: true, recipient: { ...base, route: match?.route ?? null, mailboxHash: match?.mailboxHash ?? null } };
}

async function workspaceOfMessage(db: Executor, messageId: string): Promise<string | null> {
  const [row] = await db
    .select({ workspaceId: emailMessages.workspaceId })
    .from(emailMessages)
    .where(eq(emailMessages.id, messageId));
  return row?.workspaceId ?? null;
}

function unknownRecipient(address: string): RecipientLookup {
  return { ok: false, code: 550, message: `5.1.1 <${address}>: No such recipient here.` };
}

function relayDenied(address: string, domain: string): RecipientLookup {
  return {
    ok: false,
    code: 550,
    message: `5.7.1 <${address}>: Relay access denied: ${domain} is not a domain this server takes mail for.`,
  };
}

/** The route's own words after an enhanced status (x.7.1: refused by policy) unless they start with one. */
function withEnhancedStatus(code: number, message: string): string {
  return /^[245]\.\d{1,3}\.\d{1,3} /.test(message) ? message : `${Math.floor(code / 100)}.7.1 ${message}`;
}
