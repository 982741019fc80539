import "server-only";
import { and, arrayContains, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { providerCircuits, providerConnections, routingRules } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { AppError, notFound } from "@/lib/foundation/errors";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import { auditConnection } from "./connection-writes";
import type { ProviderConnection } from "./get-connection";

/** Refused (409) while a rule names it: a rule must never point at nothing. Its circuit goes with it. */
export async function deleteConnection(
  workspaceId: string,
  id: string,
  actor: AuditActor,
): Promise<ProviderConnection> {
  const removed = await (
    await getDb()
  ).transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(providerConnections)
      .where(and(eq(providerConnections.workspaceId, workspaceId), eq(providerConnections.id, id)))
      .for("update");
    if (!row) throw notFound(`Provider connection ${id}`, "id");
    const rules = await tx
      .select({ id: routingRules.id, name: routingRules.name })
      .from(routingRules)
      .where(and(eq(routingRules.workspaceId, workspaceId), arrayContains(routingRules.connections, [row.name])));
    if (rules.length > 0) {
      const named = rules.map((rule) => rule.name ?? rule.id).join(", ");
      throw new AppError("CONFLICT", `Routing rules still name ${row.name} (${named}): change or delete them first.`, {
        param: "id",
      });
    }
    await tx.delete(providerConnections).where(eq(providerConnections.id, id));
    await tx
      .delete(providerCircuits)
      .where(and(eq(providerCircuits.workspaceId, workspaceId), eq(providerCircuits.connection, id)));
    await auditConnection(tx, actor, "provider_connection.delete", row, null);
    return row;
  });
  invalidateShortLivedCaches();
  return removed;
}
