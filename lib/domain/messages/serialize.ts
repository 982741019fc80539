import { emailMessages, type emailMessageLogs } from "@/db/schema";
import { isoTime } from "@/lib/foundation/iso-time";
import type { EmailMessageRow } from "./get-message-or-throw";

const m = emailMessages;
/** The columns serializeMessage reads: what a list page selects (never the bodies, attachments or headers). */
export const MESSAGE_API_COLUMNS = {
  id: m.id,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
  source: m.source,
  status: m.status,
  processedAt: m.processedAt,
  templateId: m.templateId,
  variables: m.variables,
  referenceId: m.referenceId,
  to: m.to,
  cc: m.cc,
  bcc: m.bcc,
  from: m.from,
  replyTo: m.replyTo,
  subject: m.subject,
  sentAt: m.sentAt,
  deliveredAt: m.deliveredAt,
  firstOpenedAt: m.firstOpenedAt,
  lastOpenedAt: m.lastOpenedAt,
  firstClickedAt: m.firstClickedAt,
  lastClickedAt: m.lastClickedAt,
  firstComplainedAt: m.firstComplainedAt,
  lastComplainedAt: m.lastComplainedAt,
  firstBouncedAt: m.firstBouncedAt,
  lastBouncedAt: m.lastBouncedAt,
  erroredAt: m.erroredAt,
  lastSuppressedAt: m.lastSuppressedAt,
  lastUnsubscribedAt: m.lastUnsubscribedAt,
  metaId: m.metaId,
  metadata: m.metadata,
  tags: m.tags,
  locale: m.locale,
  requestedLocale: m.requestedLocale,
  batchId: m.batchId,
  workflowRunId: m.workflowRunId,
  resentFromId: m.resentFromId,
  scheduledAt: m.scheduledAt,
};
export type ApiMessageRow = Pick<EmailMessageRow, keyof typeof MESSAGE_API_COLUMNS>;

const iso = (value: Date | null) => (value ? isoTime(value) : null);

/** The public EmailMessage (docs/api.md#resources): explicit nulls, ISO timestamps with milliseconds, never a raw row. */
export function serializeMessage(message: ApiMessageRow) {
  return {
    id: message.id,
    type: "EmailMessage" as const,
    createdAt: isoTime(message.createdAt),
    updatedAt: isoTime(message.updatedAt),
    source: message.source,
    status: message.status,
    processedAt: iso(message.processedAt),
    serviceTemplateId: message.templateId,
    variables: message.status === "DELETED" ? {} : message.variables,
    referenceId: message.referenceId,
    to: message.to,
    cc: message.cc,
    bcc: message.bcc,
    from: message.from,
    replyTo: message.replyTo,
    subject: message.status === "DELETED" ? null : message.subject,
    sentAt: iso(message.sentAt),
    deliveredAt: iso(message.deliveredAt),
    firstOpenedAt: iso(message.firstOpenedAt),
    lastOpenedAt: iso(message.lastOpenedAt),
    firstClickedAt: iso(message.firstClickedAt),
    lastClickedAt: iso(message.lastClickedAt),
    firstComplainedAt: iso(message.firstComplainedAt),
    lastComplainedAt: iso(message.lastComplainedAt),
    firstBouncedAt: iso(message.firstBouncedAt),
    lastBouncedAt: iso(message.lastBouncedAt),
    erroredAt: iso(message.erroredAt),
    lastSuppressedAt: iso(message.lastSuppressedAt),
    lastUnsubscribedAt: iso(message.lastUnsubscribedAt),
    metaId: message.metaId,
    metadata: message.metadata,
    tags: message.tags,
    locale: message.locale,
    requestedLocale: message.requestedLocale,
    batchId: message.batchId,
    workflowRunId: message.workflowRunId,
    resentFromId: message.resentFromId,
    scheduledAt: iso(message.scheduledAt),
  };
}

export function serializeEvent(event: typeof emailMessageLogs.$inferSelect) {
  return {
    id: event.id,
    type: "EmailMessageLog" as const,
    createdAt: isoTime(event.createdAt),
    updatedAt: isoTime(event.updatedAt),
    code: event.code,
    message: event.message,
  };
}
