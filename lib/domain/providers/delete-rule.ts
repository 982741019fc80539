import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { routingRules } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { notFound } from "@/lib/foundation/errors";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import type { RoutingRule } from "./get-rule";
import { auditRule } from "./rule-writes";

/** Messages it matched fall to the next rule, or to the default connection. */
export async function deleteRule(workspaceId: string, id: string, actor: AuditActor): Promise<RoutingRule> {
  const removed = await (
    await getDb()
  ).transaction(async (tx) => {
    const [row] = await tx
      .delete(routingRules)
      .where(and(eq(routingRules.workspaceId, workspaceId), eq(routingRules.id, id)))
      .returning();
    if (!row) throw notFound(`Routing rule ${id}`, "id");
    await auditRule(tx, actor, "routing_rule.delete", row, null);
    return row;
  });
  invalidateShortLivedCaches();
  return removed;
}
