import "server-only";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { suppressions } from "@/db/schema/suppressions";
import { AppError, invalidParameter, notFound } from "@/lib/foundation/errors";
import { normalizeSuppressionEmail, type Suppression } from "./add-suppression";

export interface RemoveSuppressionOptions {
  /** Needed for a complaint (mailing them again harms reputation); the dashboard and CLI imply it, the API must say it. */
  force?: boolean;
  /** Why it is removed: kept in the audit entry with who removed it. */
  why?: string | null;
}

/** Later sends go to it again; the removed row is kept in the audit entry. */
export async function removeSuppressionOrThrow(
  workspaceId: string,
  email: string,
  actor: AuditActor,
  options?: RemoveSuppressionOptions,
): Promise<Suppression> {
  const address = normalizeSuppressionEmail(email);
  // Without options: the dashboard or the CLI, where a person chose the row with its reason in view.
  const force = options ? options.force === true : true;
  const why = options?.why?.trim() || null;
  if (why && why.length > 500) throw invalidParameter("reason", "reason must be at most 500 characters.");
  return (await getDb()).transaction(async (tx) => {
    const where = and(eq(suppressions.workspaceId, workspaceId), eq(suppressions.email, address));
    const [current] = await tx.select({ reason: suppressions.reason }).from(suppressions).where(where).for("update");
    if (!current) throw notFound(`${address} on the suppression list`, "email");
    if (current.reason === "COMPLAINT" && !force) {
      throw new AppError(
        "CONFLICT",
        `${address} is suppressed because the recipient complained (marked a message as spam). Removing it needs "force": true, and a "reason" for the audit log.`,
        { param: "force" },
      );
    }
    if (current.reason === "COMPLAINT" && options && !why)
      throw invalidParameter("reason", "Say why a complaint is removed: reason is kept in the audit log.");
    const [removed] = await tx.delete(suppressions).where(where).returning();
    const { reason, emailMessageId, detail, createdAt } = removed;
    const target = { type: "suppression", id: address };
    const after = options ? { force, why } : null;
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: "suppression.remove",
      target,
      before: { email: address, reason, emailMessageId, detail, createdAt },
      after,
    });
    return removed;
  });
}
