import "server-only";
import { eq, max } from "drizzle-orm";
import { getDb } from "@/db/client";
import { routingRules } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { AppError } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import type { RoutingRule } from "./get-rule";
import { auditRule, checkRuleConnections, checkRuleMatch, MAX_RULES } from "./rule-writes";
import { createRuleSchema } from "./schemas";

/** A routing rule, by default after the workspace's last (docs/delivery.md#routing-and-failover). */
export async function createRule(workspaceId: string, body: unknown, actor: AuditActor): Promise<RoutingRule> {
  const parsed = createRuleSchema.safeParse(body ?? {});
  if (!parsed.success) throw zodToAppError(parsed.error);
  const input = parsed.data;
  const db = await getDb();
  await checkRuleConnections(db, workspaceId, input.connections);
  await checkRuleMatch(db, workspaceId, input.match ?? {});
  const created = await db.transaction(async (tx) => {
    const count = await tx.$count(routingRules, eq(routingRules.workspaceId, workspaceId));
    const [{ last }] = await tx
      .select({ last: max(routingRules.position) })
      .from(routingRules)
      .where(eq(routingRules.workspaceId, workspaceId));
    if (count >= MAX_RULES)
      throw new AppError("CONFLICT", `A workspace has at most ${MAX_RULES} routing rules; delete one first.`, {
        param: "position",
      });
    const [row] = await tx
      .insert(routingRules)
      .values({
        id: newId("routingRule"),
        workspaceId,
        position: input.position ?? (last ?? -1) + 1,
        name: input.name || null,
        match: input.match ?? {},
        connections: input.connections,
        enabled: input.enabled ?? true,
      })
      .returning();
    await auditRule(tx, actor, "routing_rule.create", null, row);
    return row;
  });
  invalidateShortLivedCaches();
  return created;
}
