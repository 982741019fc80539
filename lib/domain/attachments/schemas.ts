import { z } from "zod";

/** docs/api.md#decided-limits: an uploaded attachment is at most 40 MB; its upload URL lives 1 hour. */
export const MAX_UPLOAD_BYTES = 40 * 1024 * 1024;
export const UPLOAD_URL_TTL_SECONDS = 60 * 60;
/** All of one message's attachments together (inline and uploaded): what providers accept. */
export const MAX_MESSAGE_ATTACHMENT_BYTES = 40 * 1024 * 1024;

/** POST /v1/attachments: every field optional; declared values are kept, the real size replaces `size`. */
export const createAttachmentSchema = z.object({
  name: z.string().min(1).max(255).optional(),
  contentType: z
    .string()
    .min(3)
    .max(255)
    .regex(/^[\w.+-]+\/[\w.+-]+$/, "must be a MIME type such as application/pdf")
    .optional(),
  size: z.number().int().min(0).optional(),
});

export type CreateAttachmentInput = z.infer<typeof createAttachmentSchema>;
