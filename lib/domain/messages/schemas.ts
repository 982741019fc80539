import { z } from "zod";
import { tagsInputSchema } from "./tags.shared";

// POST /v1/email_messages: unknown fields are refused (assertKnownKeys, docs/api.md#unknown-fields), explicit null means absent.
// Cross-field rules live in parse-send-request.ts.
export const attachmentInputSchema = z.object({
  name: z.string().min(1).max(255),
  contentType: z
    .string()
    .min(3)
    .max(255)
    .regex(/^[\w.+-]+\/[\w.+-]+$/, "must be a MIME type such as application/pdf"),
  contentBlob: z.string().optional(),
  attachmentId: z.string().max(64).optional(),
  cid: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[^\s<>"]+$/, "must not contain spaces, quotes or angle brackets")
    .optional(),
});

const metadataValue = z.union([z.string().max(2000), z.number(), z.boolean()]);

/** A comma-separated string (the decided form) or, beyond it, an array of strings as most JSON clients send. */
const addressList = (maxLength: number) =>
  z
    .union([z.string().max(maxLength), z.array(z.string().max(1000)).max(50)])
    .describe(
      '"Ada <ada@example.org>, bob@example.org", or an array of such strings: ["ada@example.org", "Bob <bob@example.org>"].',
    );

export const sendEmailSchema = z.object({
  templateId: z.string().max(64).optional(),
  to: addressList(50_000).optional(),
  cc: addressList(50_000).optional(),
  bcc: addressList(50_000).optional(),
  from: z.string().max(1000).optional(),
  replyTo: addressList(5000).optional(),
  replyTracking: z
    .boolean()
    .optional()
    .describe(
      "true: Reply-To becomes a signed reply address of this message (r-<token>@ the workspace's first verified inbound domain, else BOUNCE_DOMAIN), so replies arrive as inbound mail linked to it. Not with replyTo.",
    ),
  subject: z.string().max(2000).optional(),
  bodyHtml: z.string().optional(),
  bodyText: z.string().optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
  locale: z
    .string()
    .max(100)
    .optional()
    .describe(
      "BCP 47 tag (fr-CA, pt-BR, zh-Hant) the template renders in, through its fallback chain (fr-CA → fr → the template's default). Omitted: the contact's locale, else the template's default. 400 only when not a well-formed tag.",
    ),
  attachments: z.array(attachmentInputSchema).max(100).optional(),
  groupId: z.string().max(64).optional(),
  groupKey: z.string().max(255).optional(),
  metaId: z.string().min(1).max(255).optional(),
  metadata: z.record(z.string().min(1).max(255), metadataValue).optional(),
  tags: tagsInputSchema.optional(),
  headers: z.record(z.string(), z.unknown()).optional(),
  scheduledAt: z
    .string()
    .max(64)
    .optional()
    .describe(
      "When to deliver: ISO 8601 with an offset (2026-05-01T09:00:00+02:00), in the future and at most SCHEDULE_MAX_DAYS (30) ahead. Omitted: at once.",
    ),
});

export type SendEmailBody = z.infer<typeof sendEmailSchema>;
export type AttachmentInput = z.infer<typeof attachmentInputSchema>;

/** The body of POST /v1/email_messages/:id/resend (optional): a metaId makes the resend idempotent, as for a send. */
export const resendEmailSchema = z.object({
  metaId: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe("Idempotency key and caller reference for the new message; without it the original's metaId is kept."),
});

export type ResendEmailBody = z.infer<typeof resendEmailSchema>;

/** The body of PATCH /v1/email_messages/:id: the new time is all that can change. */
export const rescheduleEmailSchema = z.object({
  scheduledAt: z
    .string()
    .max(64)
    .describe(
      "The new time: ISO 8601 with an offset, in the future, at most SCHEDULE_MAX_DAYS (30) ahead. The only field PATCH accepts.",
    ),
});
