import "server-only";
import type { AuditActor } from "@/lib/audit/actor";
import { recordAudit } from "@/lib/audit/record-audit";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { suppressions } from "@/db/schema/suppressions";
import { notFound } from "@/lib/errors";
import { normalizeSuppressionEmail, type Suppression } from "./add-suppression";

/** Takes an address off the workspace's suppression list (the dashboard or the CLI): later sends go to it again. */
export async function removeSuppressionOrThrow(workspaceId: string, email: string, actor: AuditActor): Promise<Suppression> {
  const address = normalizeSuppressionEmail(email);
  return (await getDb()).transaction(async (tx) => {
    const [removed] = await tx
      .delete(suppressions)
      .where(and(eq(suppressions.workspaceId, workspaceId), eq(suppressions.email, address)))
      .returning();
    if (!removed) throw notFound(`${address} on the suppression list`, "email");
    const { reason, emailMessageId, detail, createdAt } = removed;
    const target = { type: "suppression", id: address };
    await recordAudit(tx, { workspaceId, actor, action: "suppression.remove", target, before: { email: address, reason, emailMessageId, detail, createdAt } });
    return removed;
  });
}
