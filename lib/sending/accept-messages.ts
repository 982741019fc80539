import "server-only";
import type { Tx } from "@/db/client";
import { contactRows } from "@/lib/domain/contacts/upsert-contacts";
import type { DeliverMessageJob } from "@/lib/records/queue/queue";
import type { EmailMessageRow } from "@/lib/domain/messages/get-message-or-throw";
import type { PreparedMessage } from "./prepare-message";
import { metrics } from "@/lib/foundation/metrics/metrics";
import {
  HELD_CODE,
  withCreationEffects,
  withHeldEffects,
  type CreationEvent,
} from "@/lib/records/timeline/creation-events";
import { writeAcceptance } from "./accept-statement";

/**
 * The one accept path (docs/architecture.md#rules-that-carry-weight, rule 3): messages, events, contacts and jobs
 * in one statement of the caller's transaction. A message with a `failure` is FAILED from the start, with no job.
 */
export async function acceptMessages(
  tx: Tx,
  prepared: PreparedMessage[],
  extra: {
    batchId?: string;
    /** Each message's position in the batch request; defaults to its position in `prepared`. */
    batchIndexes?: number[];
    workflowRunId?: string;
  } = {},
): Promise<EmailMessageRow[]> {
  if (prepared.length === 0) return [];
  const now = new Date();
  // The error or SCHEDULED a millisecond after CREATED and RENDERED, PAUSED two: the timeline reads in order.
  const next = new Date(now.getTime() + 1);
  const rows = prepared.map((message, index) =>
    messageRow(message, extra.batchId ? (extra.batchIndexes?.[index] ?? index) : null, extra, now),
  );
  const events = acceptanceEvents(prepared, now, next);
  withCreationEffects(rows, events);
  const live = prepared.filter((message) => !message.sandbox);
  const paused = await writeAcceptance(tx, {
    messages: rows,
    events,
    contacts: [...new Set(live.map((message) => message.workspaceId))].sort().flatMap((workspaceId) =>
      contactRows(
        workspaceId,
        live.filter((message) => message.workspaceId === workspaceId).flatMap((message) => message.contacts),
      ),
    ),
    jobs: live.filter((message) => !message.failure).map(deliveryJobOf),
  });
  withHeldEffects(rows, events, paused);
  countAccepted(prepared);
  return rows;
}

/** Every column, so the caller answers without reading the row back; a sandbox message starts SUCCEEDED. */
function messageRow(
  message: PreparedMessage,
  batchIndex: number | null,
  extra: { batchId?: string; workflowRunId?: string },
  now: Date,
): EmailMessageRow {
  // EMPTY_TIMELINE is spread last: spread first, V8 adds the other properties one by one.
  return {
    id: message.id,
    workspaceId: message.workspaceId,
    source: message.source,
    submittedVia: message.submittedVia ?? null,
    sandbox: message.sandbox,
    status: message.sandbox ? "SUCCEEDED" : "PENDING",
    templateId: message.templateId,
    batchId: extra.batchId ?? null,
    batchIndex,
    workflowRunId: extra.workflowRunId ?? null,
    groupId: message.groupId,
    variables: message.variables,
    to: message.to,
    toAddresses: message.toAddresses,
    cc: message.cc,
    bcc: message.bcc,
    from: message.from,
    replyTo: message.replyTo,
    subject: message.subject,
    bodyHtml: message.bodyHtml,
    bodyText: message.bodyText,
    headers: message.headers,
    attachments: message.attachments,
    metaId: message.metaId,
    metadata: message.metadata,
    tags: message.tags,
    locale: message.locale ?? null,
    requestedLocale: message.requestedLocale ?? null,
    resentFromId: message.resentFromId ?? null,
    threadId: message.threadId ?? null,
    traceParent: message.traceParent ?? null,
    scheduledAt: message.scheduledAt,
    handedOverAt: null,
    connectionId: null,
    referenceId: "",
    createdAt: now,
    updatedAt: now,
    ...EMPTY_TIMELINE,
  };
}

/** A message's delivery job: a scheduled one carries its time, and the queue holds it until then. */
function deliveryJobOf(message: PreparedMessage): DeliverMessageJob {
  const job: DeliverMessageJob = { workspaceId: message.workspaceId, messageId: message.id };
  if (message.scheduledAt) job.scheduledAt = message.scheduledAt.toISOString();
  return job;
}

/** CREATED and RENDERED, then an error or SCHEDULED, then PAUSED for live messages (written only if paused). */
function acceptanceEvents(prepared: PreparedMessage[], now: Date, next: Date): CreationEvent[] {
  const event = (
    message: PreparedMessage,
    code: CreationEvent["code"],
    text: string | null,
    at: Date,
  ): CreationEvent => ({
    workspaceId: message.workspaceId,
    messageId: message.id,
    sandbox: message.sandbox,
    code,
    message: text,
    at,
  });
  const events = prepared.flatMap((message) => [
    event(message, "EMAIL_MESSAGE_CREATED", describeCreation(message), now),
    event(message, "EMAIL_MESSAGE_RENDERED", describeRendering(message), now),
  ]);
  for (const message of prepared) {
    if (message.failure) events.push(event(message, message.failure.code, message.failure.sentence, next));
    else if (message.scheduledAt)
      events.push(event(message, "EMAIL_MESSAGE_SCHEDULED", describeSchedule(message), next));
  }
  const held = new Date(now.getTime() + 2);
  for (const message of prepared)
    if (!message.sandbox && !message.failure) events.push(event(message, HELD_CODE, null, held));
  return events;
}

// Inside the caller's transaction: a rare rollback counts messages that never were; counting after commit would
// need every caller to do it.
function countAccepted(prepared: PreparedMessage[]): void {
  const counts = new Map<string, { source: string; sandbox: string; count: number }>();
  for (const message of prepared) {
    const key = `${message.source}\n${message.sandbox}`;
    const entry = counts.get(key) ?? { source: message.source, sandbox: String(message.sandbox), count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  for (const { source, sandbox, count } of counts.values()) metrics().messagesAccepted.inc({ source, sandbox }, count);
}

/** Timeline columns of a message nothing has happened to yet. */
const EMPTY_TIMELINE = {
  processedAt: null,
  erroredAt: null,
  sentAt: null,
  deliveredAt: null,
  firstOpenedAt: null,
  lastOpenedAt: null,
  firstClickedAt: null,
  lastClickedAt: null,
  firstComplainedAt: null,
  lastComplainedAt: null,
  firstBouncedAt: null,
  lastBouncedAt: null,
  lastSuppressedAt: null,
  lastUnsubscribedAt: null,
  deliveryUnconfirmedAt: null,
  contentPurgedAt: null,
} satisfies Partial<EmailMessageRow>;

function describeCreation(message: PreparedMessage): string {
  const recipients = message.to.length + message.cc.length + message.bcc.length;
  const mode = message.sandbox ? "Sandbox message (never delivered)" : "Message";
  const door = message.submittedVia === "smtp" ? " (submitted over SMTP)" : "";
  return `${mode} created from ${message.source}${door} for ${recipients} recipient${recipients === 1 ? "" : "s"}: ${message.to.join(", ")}.`;
}

function describeRendering(message: PreparedMessage): string {
  const what = message.templateId
    ? `Template ${message.templateId} rendered${inLocale(message)}`
    : "Raw content processed";
  const findings = message.contentFindings ? ` ${message.contentFindings}` : "";
  return `${what}: subject "${message.subject}", ${message.bodyHtml.length} characters of HTML, ${message.bodyText.length} of text.${findings}`;
}

/** " in fr (requested fr-CA)", " in fr", or nothing for a message without a locale. */
function inLocale({ locale, requestedLocale }: PreparedMessage): string {
  if (!locale) return "";
  return requestedLocale && requestedLocale !== locale
    ? ` in ${locale} (requested ${requestedLocale})`
    : ` in ${locale}`;
}

function describeSchedule(message: PreparedMessage): string {
  const when = message.scheduledAt!.toISOString();
  return message.sandbox ? `Scheduled for ${when} (sandbox: never delivered).` : `Scheduled for delivery at ${when}.`;
}
