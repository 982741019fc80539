import "server-only";
import { getDb } from "@/db/client";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { log } from "@/lib/foundation/log";
import { eraseInboundContent, removeAttachmentBytes } from "./erase-inbound-content";
import { getInboundMessageOrThrow } from "./get-inbound-message";

/**
 * DELETE /v1/inbound_messages/:id (docs/inbound.md#retention-and-erasing): subject, bodies, headers, raw bytes and
 * attachments go; the envelope, verdicts and the links to its thread and original stay. Erasing again changes nothing.
 */
export async function eraseInboundMessage(
  workspaceId: string,
  id: string,
  actor: AuditActor,
): Promise<{ id: string; erased: true; contentPurgedAt: string }> {
  const { row, storageKeys } = await (
    await getDb()
  ).transaction(async (tx) => {
    const found = await getInboundMessageOrThrow(workspaceId, id, tx);
    const erased = await eraseInboundContent(tx, [found.id], { subject: true });
    if (erased.ids.length > 0) {
      await recordAudit(tx, {
        workspaceId,
        actor,
        action: "inbound_message.erase",
        target: { type: "inbound_message", id: found.id },
        before: { subject: found.subject, from: found.fromAddress, attachments: found.attachments.length },
        after: null,
      });
    }
    return { row: await getInboundMessageOrThrow(workspaceId, id, tx), storageKeys: erased.storageKeys };
  });
  await removeAttachmentBytes(storageKeys);
  if (storageKeys.length > 0 || row.contentPurgedAt) log.info("inbound message erased", { workspaceId, id });
  return { id: row.id, erased: true, contentPurgedAt: row.contentPurgedAt!.toISOString() };
}
