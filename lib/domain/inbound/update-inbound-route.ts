import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { inboundRoutes } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { notFound } from "@/lib/foundation/errors";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { checkRouteActions } from "./check-route-actions";
import { getInboundRouteOrThrow, type InboundRoute } from "./get-inbound-route";
import { auditRoute, duplicatePattern, patternOnWorkspaceDomain, type RouteWriteOptions } from "./route-writes";
import { updateInboundRouteSchema } from "./schemas";

/** PATCH: the fields given, checked as on creation; the actions are checked again whenever they or the pattern change. */
export async function updateInboundRoute(
  workspaceId: string,
  id: string,
  body: unknown,
  actor: AuditActor,
  options: RouteWriteOptions = {},
): Promise<InboundRoute> {
  const before = await getInboundRouteOrThrow(workspaceId, id);
  const parsed = updateInboundRouteSchema.safeParse(body ?? {});
  if (!parsed.success) throw zodToAppError(parsed.error);
  const input = parsed.data;
  const db = await getDb();
  const changes: Partial<InboundRoute> = { updatedAt: new Date() };
  if (input.pattern !== undefined) {
    const pattern = await patternOnWorkspaceDomain(db, workspaceId, input.pattern);
    Object.assign(changes, {
      pattern: pattern.pattern,
      kind: pattern.kind,
      localPart: pattern.localPart,
      inboundDomainId: pattern.inboundDomainId,
    });
  }
  if (input.actions !== undefined || input.pattern !== undefined)
    changes.actions = await checkRouteActions(db, workspaceId, input.actions ?? before.actions, options.allowedSenders);
  if (input.name !== undefined) changes.name = input.name || null;
  if (input.dmarcFailAction !== undefined) changes.dmarcFailAction = input.dmarcFailAction;
  if (input.spamThreshold !== undefined) changes.spamThreshold = input.spamThreshold;
  if (input.spamAction !== undefined) changes.spamAction = input.spamAction;
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(inboundRoutes)
      .set(changes)
      .where(and(eq(inboundRoutes.workspaceId, workspaceId), eq(inboundRoutes.id, id)))
      .returning()
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? duplicatePattern(changes.pattern ?? before.pattern) : error;
      });
    if (!row) throw notFound(`Inbound route ${id}`, "id");
    await auditRoute(tx, actor, "inbound_route.update", before, row);
    return row;
  });
  invalidateShortLivedCaches();
  return updated;
}

/** PostgreSQL's unique_violation, as postgres.js and PGlite report it (possibly wrapped by Drizzle). */
function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause && typeof cause === "object"; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
