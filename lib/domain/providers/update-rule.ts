import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { routingRules } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { getRuleOrThrow, type RoutingRule } from "./get-rule";
import { auditRule, checkRuleConnections, checkRuleMatch } from "./rule-writes";
import { updateRuleSchema } from "./schemas";

/** Any of the fields, checked as on creation; `match` is replaced whole. */
export async function updateRule(
  workspaceId: string,
  id: string,
  body: unknown,
  actor: AuditActor,
): Promise<RoutingRule> {
  const parsed = updateRuleSchema.safeParse(body ?? {});
  if (!parsed.success) throw zodToAppError(parsed.error);
  const input = parsed.data;
  const current = await getRuleOrThrow(workspaceId, id);
  const db = await getDb();
  if (input.connections) await checkRuleConnections(db, workspaceId, input.connections);
  if (input.match) await checkRuleMatch(db, workspaceId, input.match);
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(routingRules)
      .set({
        name: input.name !== undefined ? input.name || null : current.name,
        position: input.position ?? current.position,
        match: input.match ?? current.match,
        connections: input.connections ?? current.connections,
        enabled: input.enabled ?? current.enabled,
        updatedAt: new Date(),
      })
      .where(and(eq(routingRules.workspaceId, workspaceId), eq(routingRules.id, id)))
      .returning();
    await auditRule(tx, actor, "routing_rule.update", current, row);
    return row;
  });
  invalidateShortLivedCaches();
  return updated;
}
