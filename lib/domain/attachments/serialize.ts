import type { attachments } from "@/db/schema";

/** The published Attachment plus `expiresAt` (docs/api.md#decided-attachments) and what is known of the upload. */
export function serializeAttachment(attachment: typeof attachments.$inferSelect, uploadUrl: string) {
  return {
    id: attachment.id,
    type: "Attachment" as const,
    createdAt: attachment.createdAt.toISOString(),
    updatedAt: attachment.updatedAt.toISOString(),
    uploadUrl,
    expiresAt: attachment.uploadExpiresAt.toISOString(),
    status: attachment.status,
    name: attachment.name,
    contentType: attachment.contentType,
    size: attachment.size,
    uploadedAt: attachment.uploadedAt?.toISOString() ?? null,
  };
}
