import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { inboundRoutes } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { notFound } from "@/lib/foundation/errors";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import type { InboundRoute } from "./get-inbound-route";
import { auditRoute } from "./route-writes";

/** Mail already received keeps its row (route_id becomes null); new mail to the pattern falls to the next route. */
export async function deleteInboundRoute(workspaceId: string, id: string, actor: AuditActor): Promise<InboundRoute> {
  const removed = await (
    await getDb()
  ).transaction(async (tx) => {
    const [row] = await tx
      .delete(inboundRoutes)
      .where(and(eq(inboundRoutes.workspaceId, workspaceId), eq(inboundRoutes.id, id)))
      .returning();
    if (!row) throw notFound(`Inbound route ${id}`, "id");
    await auditRoute(tx, actor, "inbound_route.delete", row, null);
    return row;
  });
  invalidateShortLivedCaches();
  return removed;
}
