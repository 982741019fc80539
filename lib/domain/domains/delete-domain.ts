import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { domains } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { notFound } from "@/lib/foundation/errors";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import type { Domain } from "./get-domain-or-throw";

/** From then on a send from it is refused (422 naming `from`); sent messages keep their From. */
export async function deleteDomainOrThrow(workspaceId: string, domainId: string, actor: AuditActor): Promise<Domain> {
  const removed = await (
    await getDb()
  ).transaction(async (tx) => {
    const [removed] = await tx
      .delete(domains)
      .where(and(eq(domains.workspaceId, workspaceId), eq(domains.id, domainId)))
      .returning();
    if (!removed) throw notFound(`Domain ${domainId}`, "id");
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: "domain.delete",
      target: { type: "domain", id: removed.id },
      before: { name: removed.name, status: removed.status, verifiedAt: removed.verifiedAt },
    });
    return removed;
  });
  invalidateShortLivedCaches();
  return removed;
}
