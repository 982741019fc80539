import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { inboundMessages, type InboundAttachmentJson } from "@/db/schema";
import { getAttachmentStorage } from "@/lib/domain/attachments/storage";
import { AppError, notFound } from "@/lib/foundation/errors";
import { verifyInboundAttachmentUrl } from "./attachment-url";

/**
 * GET /v1/inbound_messages/:id/attachments/:attachmentId?expires&signature: the signed URL is the credential (no API
 * key), so the lookup is by id alone: the signature was made for exactly this message and attachment.
 */
export async function readSignedInboundAttachment(
  inboundMessageId: string,
  attachmentId: string,
  query: URLSearchParams,
): Promise<{ file: InboundAttachmentJson; bytes: Buffer }> {
  verifyInboundAttachmentUrl({ inboundMessageId, attachmentId }, query);
  const [row] = await (
    await getDb()
  )
    .select({ attachments: inboundMessages.attachments, contentPurgedAt: inboundMessages.contentPurgedAt })
    .from(inboundMessages)
    .where(eq(inboundMessages.id, inboundMessageId));
  // A link signed before the erase still verifies: say why the file is gone, not merely that it is.
  if (row?.contentPurgedAt)
    throw new AppError(
      "NOT_FOUND",
      `Attachment ${attachmentId} is gone: inbound message ${inboundMessageId}'s content was erased or purged.`,
      { param: "attachmentId" },
    );
  const file = row?.attachments.find((attachment) => attachment.id === attachmentId);
  const bytes = file ? await (await getAttachmentStorage()).read(file.storageKey) : null;
  if (!file || !bytes) throw notFound(`Attachment ${attachmentId}`, "attachmentId");
  return { file, bytes };
}
