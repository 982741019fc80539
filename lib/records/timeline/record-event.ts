import "server-only";
import { and, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "@/db/client";
import { emailMessageLogs, emailMessages, webhookEvents } from "@/db/schema/index";
import { newId } from "@/lib/foundation/ids";
import type { EventCode } from "./event-codes.shared";
import { wellFormedJson } from "@/db/well-formed-json";
import { emitWebhookEvents } from "./emit-webhook-events";
import { stillPending } from "./still-pending";
import { WEBHOOK_TYPE_OF_CODE } from "./webhook-event-types.shared";

export interface RecordEventInput {
  workspaceId: string;
  messageId: string;
  code: EventCode;
  /** A human sentence with the details docs/api.md#decided-events names (delivery time, client IP and user agent, link…). */
  message: string;
  /** When it happened (the provider's time for provider events). */
  at?: Date;
  /** The same provider event twice records one event. */
  providerEventId?: string;
  /** Scanner or prefetch traffic: kept on the timeline, moves no timestamp. */
  bot?: boolean;
  details?: Record<string, unknown>;
  /** This event ends delivery with nothing left to send (every recipient suppressed): PENDING/PAUSED → SUCCEEDED. */
  settles?: boolean;
}

export interface Effect {
  /** Earliest occurrence wins (order-tolerant: a late, earlier event still moves it back). */
  first?: PgColumn;
  /** Latest occurrence wins. */
  last?: PgColumn;
  status?: "SUCCEEDED" | "FAILED" | "PAUSED" | "PENDING" | "DELETED" | "CANCELLED";
}

const m = emailMessages;
const ERROR: Effect = { first: m.erroredAt, status: "FAILED" };
export const EFFECTS: Partial<Record<EventCode, Effect>> = {
  EMAIL_MESSAGE_RENDERED: { first: m.processedAt },
  EMAIL_MESSAGE_SENT_PROVIDER_EVENT: { first: m.sentAt, status: "SUCCEEDED" },
  // Delivered implies sent, even when the provider's event overtakes the send call's answer.
  EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT: { first: m.deliveredAt, status: "SUCCEEDED" },
  EMAIL_MESSAGE_OPEN_PROVIDER_EVENT: { first: m.firstOpenedAt, last: m.lastOpenedAt },
  EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT: { first: m.firstClickedAt, last: m.lastClickedAt },
  EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT: { first: m.firstBouncedAt, last: m.lastBouncedAt },
  EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT: { first: m.firstComplainedAt, last: m.lastComplainedAt },
  EMAIL_MESSAGE_CONTACT_UNSUBSCRIBED: { last: m.lastUnsubscribedAt },
  EMAIL_MESSAGE_SUPPRESSED: { last: m.lastSuppressedAt },
  EMAIL_MESSAGE_DELIVERY_UNCONFIRMED: { first: m.deliveryUnconfirmedAt },
  EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR: ERROR,
  EMAIL_MESSAGE_INVALID_PARAMETER_ERROR: ERROR,
  EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR: ERROR,
  EMAIL_MESSAGE_INVALID_SENDER_ERROR: ERROR,
  EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR: ERROR,
  EMAIL_MESSAGE_PROVIDER_ERROR: ERROR,
  // Held while the workspace is paused, released on resume; erasing ends the message for good.
  EMAIL_MESSAGE_PAUSED: { status: "PAUSED" },
  EMAIL_MESSAGE_RESUMED: { status: "PENDING" },
  EMAIL_MESSAGE_ERASED: { status: "DELETED" },
  // Only a message still waiting (its caller checked, under the row lock, that it was not handed over).
  EMAIL_MESSAGE_CANCELLED: { status: "CANCELLED" },
};

/**
 * Every timeline change goes through here (docs/architecture.md#rules-that-carry-weight, rule 4): append the EmailMessageLog, set
 * the first/last timestamps and move the status, in the caller's transaction. Status only moves
 * forward: PENDING/PAUSED → SUCCEEDED on sent or delivered, anything but DELETED or CANCELLED → FAILED on an error;
 * the sending-state codes move only PENDING → PAUSED (held), PAUSED → PENDING (resumed), any → DELETED;
 * a cancellation moves PENDING/PAUSED → CANCELLED.
 * Returns false when the provider event was already recorded (nothing changes then).
 */
export async function recordEvent(db: Executor, input: RecordEventInput): Promise<boolean> {
  const at = input.at ?? new Date();
  const [inserted] = await db
    .insert(emailMessageLogs)
    .values({
      id: newId("event", at),
      workspaceId: input.workspaceId,
      emailMessageId: input.messageId,
      code: input.code,
      message: input.message,
      providerEventId: input.providerEventId ?? null,
      bot: input.bot ?? false,
      details: input.details ?? {},
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing()
    .returning({ id: emailMessageLogs.id });
  if (!inserted) return false;
  await emitWebhookEvents(db, [
    { logId: inserted.id, messageId: input.messageId, workspaceId: input.workspaceId, code: input.code, bot: input.bot, at },
  ]);

  const effect = EFFECTS[input.code];
  const changes: Record<string, SQL | Date> = { updatedAt: new Date() };
  if (effect && !input.bot) {
    const atParam = sql`${at.toISOString()}::timestamptz`;
    // LEAST/GREATEST ignore NULL in PostgreSQL, so the first event fills an empty column.
    if (effect.first) changes[keyOf(effect.first)] = sql`least(${effect.first}, ${atParam})`;
    if (effect.last) changes[keyOf(effect.last)] = sql`greatest(${effect.last}, ${atParam})`;
  }
  const status = statusChange(input.settles ? "SUCCEEDED" : effect?.status);
  if (status) changes.status = status;
  await db.update(m).set(changes).where(eq(m.id, input.messageId));
  return true;
}

/** The status a code moves the message to, as SQL on its current status (forward moves only). */
export function statusChange(target: Effect["status"]): SQL | undefined {
  switch (target) {
    case "SUCCEEDED":
      return sql`case when ${m.status} in ('PENDING', 'PAUSED') then 'SUCCEEDED' else ${m.status} end`;
    case "FAILED":
      return sql`case when ${m.status} in ('DELETED', 'CANCELLED') then ${m.status} else 'FAILED' end`;
    case "PAUSED":
      return sql`case when ${m.status} = 'PENDING' then 'PAUSED' else ${m.status} end`;
    case "PENDING":
      return sql`case when ${m.status} = 'PAUSED' then 'PENDING' else ${m.status} end`;
    case "DELETED":
      return sql`'DELETED'`;
    case "CANCELLED":
      return sql`case when ${m.status} in ('PENDING', 'PAUSED') then 'CANCELLED' else ${m.status} end`;
    default:
      return undefined;
  }
}

/**
 * One event for many messages of a workspace, set-based (two statements whatever the count): for the
 * sending-state changes that touch a whole paused queue at once (resume, discard). Same effects as
 * recordEvent; no providerEventId (these are the service's own, recorded once by their caller).
 */
export async function recordEventForMessages(
  db: Executor,
  input: { workspaceId: string; messageIds: string[]; code: EventCode; message: string; at?: Date },
): Promise<void> {
  if (input.messageIds.length === 0) return;
  const at = input.at ?? new Date();
  const rows = input.messageIds.map((messageId) => ({
    id: newId("event", at),
    workspaceId: input.workspaceId,
    emailMessageId: messageId,
    code: input.code,
    message: input.message,
    createdAt: at,
    updatedAt: at,
  }));
  await db.insert(emailMessageLogs).values(rows);
  await emitWebhookEvents(db, rows.map((row) => ({ logId: row.id, messageId: row.emailMessageId, workspaceId: row.workspaceId, code: input.code, at })));
  const status = statusChange(EFFECTS[input.code]?.status);
  if (!status) return;
  await db
    .update(m)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(m.workspaceId, input.workspaceId), inArray(m.id, input.messageIds)));
}

/**
 * An erase removes the content, and the RENDERED sentence quotes the subject: it is rewritten so the
 * timeline keeps the step without the words. The one place a recorded event changes after the fact.
 */
export async function redactRenderedEvents(db: Executor, workspaceId: string, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  const logs = emailMessageLogs;
  await db
    .update(logs)
    .set({ message: "Content rendered (erased since: subject and bodies are no longer stored).", updatedAt: new Date() })
    .where(and(eq(logs.workspaceId, workspaceId), inArray(logs.emailMessageId, messageIds), eq(logs.code, "EMAIL_MESSAGE_RENDERED")));
}

const COLUMN_KEYS = new Map(Object.entries(getTableColumns(m)).map(([key, column]) => [column.name, key]));

function keyOf(column: PgColumn): string {
  return COLUMN_KEYS.get(column.name)!;
}

/** A provider's acceptance of one message: its SENT event and the message's referenceId. */
export interface SentEventInput {
  workspaceId: string;
  messageId: string;
  referenceId: string;
  /** When the send began: the SENT event's time and the message's sentAt. */
  at: Date;
  /** "Sent through …." */
  message: string;
  /** One SENT per provider and message (`<provider>:sent`), even if two runs ever raced past the claim. */
  providerEventId: string;
  details: Record<string, unknown>;
}

/**
 * SENT for many messages in ONE statement, each only if it is still waiting (PENDING and unsent,
 * re-checked under its row lock): the claim, the referenceId, SENT's effects (EFFECTS above: sentAt,
 * SUCCEEDED) and the event, without a transaction's round trips per message. A data-modifying CTE is
 * atomic, and the event is inserted only for a claimed row. Returns the ids claimed; a message missing
 * from it had been recorded by another run (nothing changed for it).
 */
export async function recordSentEvents(db: Executor, sends: SentEventInput[]): Promise<Set<string>> {
  if (sends.length === 0) return new Set();
  const rows = sends.map((send) => ({
    id: send.messageId,
    workspace_id: send.workspaceId,
    reference_id: send.referenceId,
    at: send.at.toISOString(),
    event_id: newId("event", send.at),
    webhook_event_id: newId("webhookEvent", send.at),
    message: send.message,
    provider_event_id: send.providerEventId,
    details: send.details,
  }));
  const sent = EFFECTS.EMAIL_MESSAGE_SENT_PROVIDER_EVENT!;
  const logs = emailMessageLogs;
  const e = webhookEvents;
  const name = (column: { name: string }) => sql.identifier(column.name);
  // The rows as one JSON parameter (drizzle would expand them into a parameter per value); the ids once
  // more as a list, whose length the planner knows: it then reads the rows by primary key instead of
  // scanning the table when its statistics say few are PENDING (a seq scan per statement otherwise), and
  // stillPending keeps it off the status index for the same reason.
  const result = await db.execute<{ id: string }>(sql`
    with input as (
      select * from json_to_recordset(${wellFormedJson(rows)}::json) as i(
        id text, workspace_id text, reference_id text, at timestamptz, event_id text, webhook_event_id text, message text, provider_event_id text, details jsonb)
    ), claimed as (
      update ${m} set ${name(m.referenceId)} = input.reference_id, ${name(sent.first!)} = input.at,
        ${name(m.status)} = ${statusChange(sent.status)}, ${name(m.updatedAt)} = ${new Date().toISOString()}::timestamptz
      from input
      where ${inArray(m.id, rows.map((row) => row.id))} and ${m.id} = input.id and ${m.workspaceId} = input.workspace_id and ${stillPending} and ${m.sentAt} is null
      returning ${m.id}, ${m.sandbox}
    ), sent as (
      insert into ${logs} (${name(logs.id)}, ${name(logs.workspaceId)}, ${name(logs.emailMessageId)}, ${name(logs.code)},
        ${name(logs.message)}, ${name(logs.providerEventId)}, ${name(logs.bot)}, ${name(logs.details)}, ${name(logs.createdAt)}, ${name(logs.updatedAt)})
      select input.event_id, input.workspace_id, input.id, 'EMAIL_MESSAGE_SENT_PROVIDER_EVENT', input.message, input.provider_event_id,
        false, input.details, input.at, input.at
      from input join claimed on claimed.id = input.id
      on conflict do nothing
      returning ${name(logs.emailMessageId)} as message_id
    ), webhook as (
      -- The email.sent outbox/feed row (emit-webhook-events.ts), in the same statement; sandbox messages send none.
      insert into ${e} (${name(e.id)}, ${name(e.workspaceId)}, ${name(e.type)}, ${name(e.emailMessageId)}, ${name(e.logId)}, ${name(e.bot)}, ${name(e.createdAt)})
      select input.webhook_event_id, input.workspace_id, ${WEBHOOK_TYPE_OF_CODE.EMAIL_MESSAGE_SENT_PROVIDER_EVENT}, input.id, input.event_id, false, input.at
      from input join sent on sent.message_id = input.id join claimed on claimed.id = input.id
      where not claimed.sandbox
    )
    select id from claimed`);
  const claimed = (Array.isArray(result) ? result : (result as unknown as { rows: Array<{ id: string }> }).rows) as Array<{ id: string }>;
  return new Set(claimed.map((row) => row.id));
}
