import { z } from "zod";
import {
  ATTACHMENT_STATUSES,
  MESSAGE_SOURCES,
  MESSAGE_STATUSES,
  TEMPLATE_KINDS,
  WORKFLOW_RUN_STATUSES,
} from "@/db/schema";
import { ERROR_CODES } from "@/lib/foundation/errors";
import { EVENT_CODES } from "@/lib/records/timeline/event-codes.shared";

/**
 * The public resources as zod schemas, for the OpenAPI document only: the serializers build these
 * objects, and resources.test.ts parses their real output with these schemas (strictly), so the
 * document cannot drift from what the API answers.
 */
const timestamp = z.iso.datetime().describe("ISO 8601 UTC with milliseconds, e.g. 2026-01-02T03:04:05.678Z.");
const happenedAt = (what: string) => timestamp.nullable().describe(`${what}; null until it happens.`);
const id = (prefix: string) => z.string().describe(`A "${prefix}" prefix and 16 base62 characters.`);
const base = <T extends string>(type: T, prefix: string) => ({
  id: id(prefix),
  type: z.literal(type),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const emailMessageResource = z.object({
  ...base("EmailMessage", "em_"),
  source: z.enum(MESSAGE_SOURCES).describe("How the message was created; fixed at creation."),
  status: z
    .enum(MESSAGE_STATUSES)
    .describe(
      "A scheduled message is PENDING (or PAUSED) with scheduledAt set until it is sent; CANCELLED (beyond the published enum) once cancelled before its hand-off.",
    ),
  processedAt: happenedAt("When the message was validated and rendered"),
  serviceTemplateId: z.string().nullable().describe("The template id, when sent with a template."),
  variables: z.record(z.string(), z.unknown()).describe("Template variables as given (empty once DELETED)."),
  referenceId: z.string().describe("The id the delivery provider gave the message; empty until it is sent."),
  to: z.array(z.string()).describe('Each entry as given: "addr" or "Display Name <addr>".'),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  from: z.string(),
  replyTo: z.string().nullable(),
  subject: z.string().nullable().describe("The rendered subject (beyond the published API); null once DELETED."),
  sentAt: happenedAt("When the message was handed to the provider"),
  deliveredAt: happenedAt("When the recipient's server accepted it"),
  firstOpenedAt: happenedAt("First open"),
  lastOpenedAt: happenedAt("Last open"),
  firstClickedAt: happenedAt("First click"),
  lastClickedAt: happenedAt("Last click"),
  firstComplainedAt: happenedAt("First complaint"),
  lastComplainedAt: happenedAt("Last complaint"),
  firstBouncedAt: happenedAt("First bounce"),
  lastBouncedAt: happenedAt("Last bounce"),
  erroredAt: happenedAt("When the message failed and was not sent"),
  lastSuppressedAt: happenedAt("When a recipient was suppressed (unsubscribed or on the suppression list)"),
  lastUnsubscribedAt: happenedAt("When a contact unsubscribed through this message"),
  metaId: z.string().nullable().describe("The caller's reference and idempotency key."),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  tags: z
    .array(z.string())
    .describe('The message\'s "name:value" tags as given, each once; [] when none (beyond the published API).'),
  locale: z
    .string()
    .nullable()
    .describe(
      "The locale the template rendered in (a variant, or the template's default; raw content: the send's locale); null for a message without one (beyond the published API).",
    ),
  requestedLocale: z
    .string()
    .nullable()
    .describe(
      "The locale asked for, canonical: the send's, else the recipient contact's; null when neither (beyond the published API).",
    ),
  batchId: z.string().nullable().describe("The batch it was sent in (beyond the published API)."),
  workflowRunId: z.string().nullable().describe("The workflow run that sent it (beyond the published API)."),
  resentFromId: z
    .string()
    .nullable()
    .describe("The message this one is a resend of (POST /v1/email_messages/{id}/resend; beyond the published API)."),
  scheduledAt: z.iso
    .datetime({ offset: true })
    .nullable()
    .describe("When delivery may start, as requested or rescheduled; null: at once (beyond the published API)."),
});

export const batchCancellationResource = z.object({
  type: z.literal("BatchCancellation"),
  batchId: z.string(),
  cancelledEmailMessageIds: z.array(z.string()).describe("The messages this call cancelled, in batch order."),
  notCancelled: z
    .array(z.object({ id: z.string(), status: z.enum(MESSAGE_STATUSES), reason: z.string() }))
    .describe(
      "The batch's other messages, each with its state: already sent or handed over, failed, cancelled before, or sandbox.",
    ),
});

export const emailMessageLogResource = z.object({
  ...base("EmailMessageLog", "log_"),
  code: z.enum(EVENT_CODES),
  message: z.string().describe("A sentence with the event's details (delivery time, client, link, diagnostic)."),
});

export const renderedTemplateResource = z.object({
  type: z.literal("RenderedTemplate"),
  createdAt: timestamp,
  subject: z.string(),
  bodyHtml: z.string(),
  bodyText: z.string().describe("Given, or derived from the HTML with links written as text [url]."),
  locale: z
    .string()
    .optional()
    .describe("Beyond the published API: the locale rendered (the request, its language, or the default)."),
  requestedLocale: z.string().nullable().optional().describe("The requested locale canonicalised; null when none."),
});

export const templateResource = z.object({
  ...base("Template", "tpl_"),
  rawSubject: z.string(),
  rawBodyHtml: z.string(),
  rawBodyText: z
    .string()
    .nullable()
    .describe("Beyond the published API; null when the text part is derived from the HTML."),
  // Beyond the published API: what the management endpoints read and write (docs/api.md#templates).
  name: z.string(),
  version: z.int().describe("The current version; every save adds one. GET answers it as the ETag, for If-Match."),
  kind: z
    .enum(TEMPLATE_KINDS)
    .describe("code: Liquid HTML; blocks: an EmailBuilder.js document, its compiled Liquid HTML in rawBodyHtml."),
  blocks: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      "The block document (a map of block id → block, with a root EmailLayout) of a blocks template; null for code.",
    ),
  fromAddress: z.string().nullable().describe("The default sender (Liquid allowed) when a send gives no from."),
  replyTo: z.string().nullable(),
  strict: z.boolean().describe("A variable missing from the data is a TEMPLATE_RENDER_ERROR instead of empty."),
  defaultLocale: z
    .string()
    .describe("The BCP 47 locale of the template's own content: the last link of every fallback chain."),
});

const batchBase = {
  ...base("Batch", "batch_"),
  sandbox: z.boolean(),
  count: z.int().describe("Messages in the batch."),
  emailMessageIds: z.array(z.string()).describe("The batch's message ids, in request order."),
};

export const batchResource = z.object({
  ...batchBase,
  counts: z
    .record(z.enum(MESSAGE_STATUSES), z.int())
    .optional()
    .describe(
      "Messages by status: answered by GET /v1/batches/{id} (beyond the published API), not by the create call.",
    ),
});

export const workflowRunResource = z.object({
  ...base("WorkflowRun", "wfr_"),
  workflowId: z.string().nullable().describe("Null when the key matched no enabled workflow."),
  workflowKey: z.string().nullable(),
  sandbox: z.boolean(),
  status: z.enum(WORKFLOW_RUN_STATUSES).describe("SKIPPED: the key matched no enabled workflow (see reason)."),
  reason: z.string().nullable().describe("Why the run was skipped or failed."),
  variables: z.record(z.string(), z.unknown()),
  metaId: z.string().nullable(),
  tags: z.array(z.string()).describe("The trigger's tags, given to every message of the run; [] when none."),
  emailMessageIds: z.array(z.string()).describe("Messages sent by the run so far, in creation order."),
  completedAt: happenedAt("When the run finished (beyond the decided rules)"),
});

export const attachmentResource = z.object({
  ...base("Attachment", "attachment_"),
  uploadUrl: z.url().describe("PUT the bytes here (no other credentials; at most 40 MB) before expiresAt."),
  expiresAt: timestamp.describe("When uploadUrl stops working (1 hour after creation)."),
  status: z.enum(ATTACHMENT_STATUSES).describe("UPLOADED once the bytes arrived."),
  name: z.string().nullable(),
  contentType: z.string().nullable(),
  size: z.int().nullable().describe("Declared at creation; the real size once uploaded."),
  uploadedAt: happenedAt("When the bytes arrived"),
});

export const errorEnvelope = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string().describe("What went wrong and how to fix it."),
    param: z.string().optional().describe("The field at fault, e.g. to, attachments[0].contentBlob, cursor.after."),
    details: z
      .array(z.object({ index: z.int(), param: z.string().optional(), code: z.enum(ERROR_CODES), message: z.string() }))
      .optional()
      .describe("Batches: one entry per bad element."),
  }),
});

export const messageListMeta = z.object({
  limit: z.int(),
  count: z.int().describe("Items on this page."),
  "cursor.after": z.string().nullable().describe("Pass as cursor.after for the next (older) page; null at the end."),
  "cursor.before": z
    .string()
    .nullable()
    .describe("Pass as cursor.before for the previous (newer) page; null at the start."),
});

export const eventListMeta = z.object({
  count: z.int().describe("All events of the message."),
  page: z.int().describe("1-based."),
  limit: z.literal(50),
});

export const batchMessagesMeta = z.object({
  offset: z.int(),
  limit: z.literal(100),
  count: z.int().describe("All messages of the batch."),
});

export const auditEventResource = z.object({
  id: id("audit_"),
  type: z.literal("AuditEvent"),
  actor: z.object({
    type: z.enum(["USER", "API_KEY", "SYSTEM"]),
    id: z.string().nullable().describe("The user (user_…) or API key (key_…); null for the system."),
    label: z
      .string()
      .nullable()
      .describe("The user's email or the key's name at the time; CLI or Postwerk for the system."),
  }),
  action: z
    .string()
    .describe("`<resource>.<verb>`, e.g. api_key.create, domain.verify, workspace.pause (docs/audit.md)."),
  target: z.object({ type: z.string(), id: z.string().nullable() }),
  before: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe("The changed fields before; null for a creation. Never secrets."),
  after: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe("The changed fields after; null for a deletion. Never secrets."),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: timestamp,
});
