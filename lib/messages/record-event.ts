import "server-only";
import { eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "@/db/client";
import { emailMessageLogs, emailMessages } from "@/db/schema";
import { newId } from "@/lib/ids";
import type { EventCode } from "./event-codes.shared";

export interface RecordEventInput {
  workspaceId: string;
  messageId: string;
  code: EventCode;
  /** A human sentence with the details API.md names (delivery time, client IP and user agent, link…). */
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

interface Effect {
  /** Earliest occurrence wins (order-tolerant: a late, earlier event still moves it back). */
  first?: PgColumn;
  /** Latest occurrence wins. */
  last?: PgColumn;
  status?: "SUCCEEDED" | "FAILED";
}

const m = emailMessages;
const ERROR: Effect = { first: m.erroredAt, status: "FAILED" };
const EFFECTS: Partial<Record<EventCode, Effect>> = {
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
};

/**
 * Every timeline change goes through here (ARCHITECTURE.md rule 4): append the EmailMessageLog, set
 * the first/last timestamps and move the status, in the caller's transaction. Status only moves
 * forward: PENDING/PAUSED → SUCCEEDED on sent or delivered, anything but DELETED → FAILED on an error.
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

  const effect = EFFECTS[input.code];
  const changes: Record<string, SQL | Date> = { updatedAt: new Date() };
  if (effect && !input.bot) {
    const atParam = sql`${at.toISOString()}::timestamptz`;
    // LEAST/GREATEST ignore NULL in PostgreSQL, so the first event fills an empty column.
    if (effect.first) changes[keyOf(effect.first)] = sql`least(${effect.first}, ${atParam})`;
    if (effect.last) changes[keyOf(effect.last)] = sql`greatest(${effect.last}, ${atParam})`;
  }
  if (effect?.status === "SUCCEEDED" || input.settles) {
    changes.status = sql`case when ${m.status} in ('PENDING', 'PAUSED') then 'SUCCEEDED' else ${m.status} end`;
  } else if (effect?.status === "FAILED") {
    changes.status = sql`case when ${m.status} = 'DELETED' then ${m.status} else 'FAILED' end`;
  }
  await db.update(m).set(changes).where(eq(m.id, input.messageId));
  return true;
}

const COLUMN_KEYS = new Map(Object.entries(getTableColumns(m)).map(([key, column]) => [column.name, key]));

function keyOf(column: PgColumn): string {
  return COLUMN_KEYS.get(column.name)!;
}

/**
 * The first two timeline entries of new messages, written set-based (one statement for a whole
 * batch). The message rows are inserted with processedAt already set, which is RENDERED's effect.
 */
export async function recordCreationEvents(
  db: Executor,
  messages: Array<{ id: string; workspaceId: string; createdAt: Date; createdMessage: string; renderedMessage: string }>,
): Promise<void> {
  if (messages.length === 0) return;
  const rows = messages.flatMap((message) => [
    { code: "EMAIL_MESSAGE_CREATED", text: message.createdMessage, message },
    { code: "EMAIL_MESSAGE_RENDERED", text: message.renderedMessage, message },
  ]);
  await db.insert(emailMessageLogs).values(
    rows.map(({ code, text, message }) => ({
      id: newId("event", message.createdAt),
      workspaceId: message.workspaceId,
      emailMessageId: message.id,
      code,
      message: text,
      createdAt: message.createdAt,
      updatedAt: message.createdAt,
    })),
  );
}
