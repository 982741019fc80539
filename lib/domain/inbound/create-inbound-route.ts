import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { inboundRoutes } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { AppError } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { checkRouteActions } from "./check-route-actions";
import type { InboundRoute } from "./get-inbound-route";
import { auditRoute, duplicatePattern, patternOnWorkspaceDomain, type RouteWriteOptions } from "./route-writes";
import { createInboundRouteSchema } from "./schemas";

/** Every RCPT TO reads a domain's routes (cached a second): a bound keeps that read small. */
export const MAX_ROUTES_PER_DOMAIN = 1000;

/**
 * A route: a recipient pattern on one of the workspace's inbound domains → actions (docs/inbound.md#routes). Input is
 * parsed here (the API, the CLI and the dashboard pass their bodies); 400 naming the field, 409 naming `pattern` when
 * the domain already has that pattern.
 */
export async function createInboundRoute(
  workspaceId: string,
  body: unknown,
  actor: AuditActor,
  options: RouteWriteOptions = {},
): Promise<InboundRoute> {
  const parsed = createInboundRouteSchema.safeParse(body ?? {});
  if (!parsed.success) throw zodToAppError(parsed.error);
  const input = parsed.data;
  const db = await getDb();
  const pattern = await patternOnWorkspaceDomain(db, workspaceId, input.pattern);
  const existing = await db.$count(
    inboundRoutes,
    and(eq(inboundRoutes.workspaceId, workspaceId), eq(inboundRoutes.inboundDomainId, pattern.inboundDomainId)),
  );
  if (existing >= MAX_ROUTES_PER_DOMAIN) {
    throw new AppError(
      "CONFLICT",
      `A domain has at most ${MAX_ROUTES_PER_DOMAIN} routes; delete one first, or use support+{hash}@ or *@ patterns.`,
      { param: "pattern" },
    );
  }
  const actions = await checkRouteActions(db, workspaceId, input.actions ?? [], options.allowedSenders);
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(inboundRoutes)
      .values({
        id: newId("inboundRoute"),
        workspaceId,
        inboundDomainId: pattern.inboundDomainId,
        name: input.name || null,
        pattern: pattern.pattern,
        kind: pattern.kind,
        localPart: pattern.localPart,
        actions,
        dmarcFailAction: input.dmarcFailAction ?? "accept",
        spamThreshold: input.spamThreshold ?? null,
        spamAction: input.spamAction ?? "quarantine",
        enabled: input.enabled ?? true,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw duplicatePattern(pattern.pattern);
    await auditRoute(tx, actor, "inbound_route.create", null, row);
    return row;
  });
  invalidateShortLivedCaches();
  return created;
}
