import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { inboundDomains } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { notFound } from "@/lib/foundation/errors";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import type { InboundDomain } from "./get-inbound-domain";

/** With its routes (cascade); mail already received stays (its domain and route become null). RCPT TO refuses it again. */
export async function deleteInboundDomain(workspaceId: string, id: string, actor: AuditActor): Promise<InboundDomain> {
  const removed = await (
    await getDb()
  ).transaction(async (tx) => {
    const [row] = await tx
      .delete(inboundDomains)
      .where(and(eq(inboundDomains.workspaceId, workspaceId), eq(inboundDomains.id, id)))
      .returning();
    if (!row) throw notFound(`Inbound domain ${id}`, "id");
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: "inbound_domain.delete",
      target: { type: "inbound_domain", id: row.id },
      before: { name: row.name, status: row.status, verifiedAt: row.verifiedAt },
    });
    return row;
  });
  invalidateShortLivedCaches();
  return removed;
}
