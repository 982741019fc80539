import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { emailMessageLogs, emailMessages, webhookEvents } from "@/db/schema/index";
import { newId } from "@/lib/foundation/ids";
import type { EventCode } from "./event-codes.shared";
import { wellFormedJson } from "@/db/well-formed-json";
import { emitWebhookEvents } from "./emit-webhook-events";
import { stillPending } from "./still-pending";
import { EFFECTS } from "./effects";
import { effectAssignments, effectChanges } from "./effects-sql";

export interface RecordEventInput {
  workspaceId: string;
  messageId: string;
  code: EventCode;
  /** A human sentence with the details docs/api.md#decided-events names. */
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
  /** email.replied: the inbound mail that answers the message, carried on the webhook row (docs/inbound.md#webhooks). */
  inboundMessageId?: string;
}

const m = emailMessages;

/** One timeline event, its webhook row and its effects (effects.ts); false when already recorded. */
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
    {
      logId: inserted.id,
      messageId: input.messageId,
      workspaceId: input.workspaceId,
      code: input.code,
      bot: input.bot,
      at,
      inboundMessageId: input.inboundMessageId,
    },
  ]);

  const effects = effectChanges(input.code, sql`${at.toISOString()}::timestamptz`, {
    bot: input.bot,
    settles: input.settles,
  });
  const changes = { updatedAt: new Date(), ...effects };
  await db.update(m).set(changes).where(eq(m.id, input.messageId));
  return true;
}

/** One service event for many messages of a workspace (resume, discard), set-based, with recordEvent's effects. */
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
  await emitWebhookEvents(
    db,
    rows.map((row) => ({
      logId: row.id,
      messageId: row.emailMessageId,
      workspaceId: row.workspaceId,
      code: input.code,
      at,
    })),
  );
  const changes = effectChanges(input.code, sql`${at.toISOString()}::timestamptz`);
  if (Object.keys(changes).length === 0) return;
  await db
    .update(m)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(m.workspaceId, input.workspaceId), inArray(m.id, input.messageIds)));
}

/** The RENDERED sentence quotes the subject, so an erase rewrites it: the one event changed after the fact. */
export async function redactRenderedEvents(db: Executor, workspaceId: string, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  const logs = emailMessageLogs;
  await db
    .update(logs)
    .set({
      message: "Content rendered (erased since: subject and bodies are no longer stored).",
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(logs.workspaceId, workspaceId),
        inArray(logs.emailMessageId, messageIds),
        eq(logs.code, "EMAIL_MESSAGE_RENDERED"),
      ),
    );
}

const SENT = "EMAIL_MESSAGE_SENT_PROVIDER_EVENT" satisfies EventCode;

/** A provider's acceptance of one message: its SENT event and the message's referenceId. */
export interface SentEventInput {
  workspaceId: string;
  messageId: string;
  referenceId: string;
  /** When the send began: the SENT event's time and the message's sentAt. */
  at: Date;
  message: string;
  /** One SENT per provider and message (`<provider>:sent`), even if two runs ever raced past the claim. */
  providerEventId: string;
  details: Record<string, unknown>;
}

/**
 * SENT for many messages in one atomic statement, each only if still unsent: claim, referenceId, effects, event and
 * webhook row. Returns the ids claimed; a missing one was recorded by another run.
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
  const webhook = EFFECTS[SENT].webhook;
  const logs = emailMessageLogs;
  const e = webhookEvents;
  const name = (column: { name: string }) => sql.identifier(column.name);
  // The ids once more as a list of known length, so the planner reads rows by primary key, not a seq scan when
  // statistics say few are PENDING; stillPending keeps it off the status index.
  const result = await db.execute<{ id: string }>(sql`
    with input as (
      select * from json_to_recordset(${wellFormedJson(rows)}::json) as i(
        id text, workspace_id text, reference_id text, at timestamptz, event_id text, webhook_event_id text, message text, provider_event_id text, details jsonb)
    ), claimed as (
      update ${m} set ${name(m.referenceId)} = input.reference_id${effectAssignments(SENT, sql`input.at`)},
        ${name(m.updatedAt)} = ${new Date().toISOString()}::timestamptz
      from input
      where ${inArray(
        m.id,
        rows.map((row) => row.id),
      )} and ${m.id} = input.id and ${m.workspaceId} = input.workspace_id and ${stillPending} and ${m.sentAt} is null
      returning ${m.id}, ${m.sandbox}
    ), sent as (
      insert into ${logs} (${name(logs.id)}, ${name(logs.workspaceId)}, ${name(logs.emailMessageId)}, ${name(logs.code)},
        ${name(logs.message)}, ${name(logs.providerEventId)}, ${name(logs.bot)}, ${name(logs.details)}, ${name(logs.createdAt)}, ${name(logs.updatedAt)})
      select input.event_id, input.workspace_id, input.id, ${SENT}, input.message, input.provider_event_id,
        false, input.details, input.at, input.at
      from input join claimed on claimed.id = input.id
      on conflict do nothing
      returning ${name(logs.emailMessageId)} as message_id
    )${
      webhook
        ? sql`, webhook as (
      -- SENT's outbox/feed row (as emit-webhook-events.ts writes it), in the same statement; sandbox messages send none.
      insert into ${e} (${name(e.id)}, ${name(e.workspaceId)}, ${name(e.type)}, ${name(e.emailMessageId)}, ${name(e.logId)}, ${name(e.bot)}, ${name(e.createdAt)})
      select input.webhook_event_id, input.workspace_id, ${webhook}, input.id, input.event_id, false, input.at
      from input join sent on sent.message_id = input.id join claimed on claimed.id = input.id
      where not claimed.sandbox
    )`
        : sql``
    }
    select id from claimed`);
  const claimed = (
    Array.isArray(result) ? result : (result as unknown as { rows: Array<{ id: string }> }).rows
  ) as Array<{ id: string }>;
  return new Set(claimed.map((row) => row.id));
}
