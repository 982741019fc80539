import "server-only";
import { and, eq } from "drizzle-orm";
import type { Executor, Tx } from "@/db/client";
import { inboundDomains } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAuditedChange } from "@/lib/records/audit/record-audit";
import { AppError, invalidParameter } from "@/lib/foundation/errors";
import type { InboundRoute } from "./get-inbound-route";
import { parseRoutePattern, type RoutePattern } from "./route-pattern.shared";

// What creating and changing a route share: the pattern on one of the workspace's domains, the conflict, the audit.

/** The pattern read and its domain, one of the workspace's inbound domains (any status: routes may come first). */
export async function patternOnWorkspaceDomain(
  db: Executor,
  workspaceId: string,
  input: string,
): Promise<RoutePattern & { inboundDomainId: string }> {
  const parsed = parseRoutePattern(input);
  if (typeof parsed === "string") throw invalidParameter("pattern", `pattern ${parsed}.`);
  const [domain] = await db
    .select({ id: inboundDomains.id })
    .from(inboundDomains)
    .where(and(eq(inboundDomains.workspaceId, workspaceId), eq(inboundDomains.name, parsed.domain)));
  if (!domain) {
    throw invalidParameter(
      "pattern",
      `${parsed.domain} is not an inbound domain of this workspace: add it first (POST /v1/inbound_domains), then route its addresses.`,
    );
  }
  return { ...parsed, inboundDomainId: domain.id };
}

export interface RouteWriteOptions {
  /** The API key's allowed senders (docs/api.md#key-restrictions): a forward's `from` must be one of them too. */
  allowedSenders?: readonly string[];
}

export const duplicatePattern = (pattern: string) =>
  new AppError("CONFLICT", `A route with the pattern ${pattern} already exists on its domain.`, { param: "pattern" });

/** The route's audited fields (docs/audit.md#actions). */
const audited = (row: InboundRoute) => ({
  pattern: row.pattern,
  name: row.name,
  actions: row.actions,
  dmarcFailAction: row.dmarcFailAction,
  spamThreshold: row.spamThreshold,
  spamAction: row.spamAction,
  enabled: row.enabled,
});

/** One entry per change; an update that changes nothing writes none. */
export async function auditRoute(
  tx: Tx,
  actor: AuditActor,
  action: "inbound_route.create" | "inbound_route.update" | "inbound_route.delete",
  before: InboundRoute | null,
  after: InboundRoute | null,
): Promise<void> {
  await recordAuditedChange(tx, { actor, action, targetType: "inbound_route", before, after, audited });
}
