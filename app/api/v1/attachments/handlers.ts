import { created } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { createAttachment } from "@/lib/domain/attachments/create-attachment";
import { serializeAttachment } from "@/lib/domain/attachments/serialize";
import { createAttachmentSchema } from "@/lib/domain/attachments/schemas";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";

// POST /v1/attachments – an attachment id and the signed URL its bytes are PUT to (valid 1 hour)
export const POST = withApiKey(
  { scope: "emails:send", body: "optional", maxBytes: 64 * 1024 },
  async ({ principal, body }) => {
    assertKnownKeys(body, createAttachmentSchema);
    const { attachment, uploadUrl } = await createAttachment({
      workspaceId: principal.workspaceId,
      credential: principal.apiKeyId,
      body,
    });
    return created(serializeAttachment(attachment, uploadUrl));
  },
);
