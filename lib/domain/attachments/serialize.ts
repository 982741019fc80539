import type { attachments } from "@/db/schema";

/**
 * The Attachment of the published API (`id`, `type`, `createdAt`, `updatedAt`, `uploadUrl`) with `expiresAt`
 * (docs/api.md#decided-attachments) and, beyond both, what the service knows of the upload so far.
 */
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
