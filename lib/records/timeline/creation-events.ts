import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { emailMessageLogs, webhookEvents } from "@/db/schema/index";
import { jsonRecords, jsonRowsInsert } from "@/db/insert-json-rows";
import { newId } from "@/lib/foundation/ids";
import type { EventCode } from "./event-codes.shared";
import { applyEffect, EFFECTS } from "./effects";
import { statusChange } from "./effects-sql";

/** A timeline event of new messages. `message: null` marks a held (PAUSED) event: see creationEventsCtes. */
export interface CreationEvent {
  workspaceId: string;
  messageId: string;
  sandbox: boolean;
  code: EventCode;
  message: string | null;
  at: Date;
}

const LOG_KEYS: Array<keyof typeof emailMessageLogs.$inferInsert> = [
  "id",
  "workspaceId",
  "emailMessageId",
  "code",
  "message",
  "createdAt",
  "updatedAt",
];
const OUTBOX_KEYS: Array<keyof typeof webhookEvents.$inferInsert> = [
  "id",
  "workspaceId",
  "type",
  "emailMessageId",
  "logId",
  "createdAt",
];

/**
 * The rows of creationEventsCtes, as its two JSON parameters: each event's timeline row, and the
 * webhook outbox/feed row of each that has a webhook type (emit-webhook-events.ts: codes without one
 * and sandbox messages write none).
 */
export function creationEventsJson(events: CreationEvent[]): { logs: string; outbox: string } {
  const logs = events.map((event) => ({
    id: newId("event", event.at),
    workspaceId: event.workspaceId,
    emailMessageId: event.messageId,
    code: event.code,
    message: event.message!,
    createdAt: event.at,
    updatedAt: event.at,
  }));
  const outbox = logs.flatMap((log, index) => {
    const type = events[index]!.sandbox ? undefined : EFFECTS[log.code].webhook;
    return type
      ? [
          {
            id: newId("webhookEvent", log.createdAt),
            workspaceId: log.workspaceId,
            type,
            emailMessageId: log.emailMessageId,
            logId: log.id,
            createdAt: log.createdAt,
          },
        ]
      : [];
  });
  return {
    logs: jsonRecords(emailMessageLogs, LOG_KEYS, logs),
    outbox: jsonRecords(webhookEvents, OUTBOX_KEYS, outbox),
  };
}

/**
 * The first timeline entries of new messages and their webhook outbox/feed rows, as two CTEs, `logs`
 * and `outbox`, of the accept statement (lib/sending/accept-statement.ts), which inserts the messages
 * in the same statement: their effects are the columns the messages are inserted with, since a
 * statement cannot update the rows it inserts. Their rows come as creationEventsJson's two parameters
 * (or placeholders for them). A held event (message null) is written only where `held.where` holds
 * (the workspace turned out paused), with `held.message` as its sentence: both are SQL over the row's
 * `workspace_id`. Every other event is written as it is, and a held event has no webhook type.
 */
export function creationEventsCtes(json: { logs: SQL; outbox: SQL }, held: { message: SQL; where: SQL }): SQL {
  return sql`logs as (${jsonRowsInsert(emailMessageLogs, LOG_KEYS, json.logs, {
    computed: { message: sql`coalesce(message, ${held.message})` },
    where: sql`message is not null or ${held.where}`,
  })}),
    outbox as (${jsonRowsInsert(webhookEvents, OUTBOX_KEYS, json.outbox)})`;
}

/** The code of a held event (message null): written only if the workspace turns out paused. */
export const HELD_CODE = "EMAIL_MESSAGE_PAUSED" satisfies EventCode;

type NewRow = Parameters<typeof applyEffect>[0] & { id: string; workspaceId: string };

/**
 * The new messages' columns as their events leave them (effects.ts), for the rows the accept
 * statement inserts: the effects of every event written as it is. A held event's effect is
 * heldStatusSql inside the statement, and withHeldEffects on the returned rows after it.
 */
export function withCreationEffects(rows: NewRow[], events: CreationEvent[]): void {
  applyTo(
    rows,
    events.filter((event) => event.message !== null),
  );
}

/** The held events' effect on the rows of the workspaces the statement found paused. */
export function withHeldEffects(
  rows: NewRow[],
  events: CreationEvent[],
  paused: { has(workspaceId: string): boolean },
): void {
  applyTo(
    rows,
    events.filter((event) => event.message === null && paused.has(event.workspaceId)),
  );
}

function applyTo(rows: NewRow[], events: CreationEvent[]): void {
  if (events.length === 0) return;
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const event of events) applyEffect(byId.get(event.messageId)!, event.code, event.at);
}

/**
 * A new message's status column in the accept statement (SQL over the inserted row's `status`): its
 * held event's move (PENDING → PAUSED) where `held` holds, the event being written there too. Its
 * status is all a held event changes (effects.test.ts compares the columns with recordEvent's).
 */
export function heldStatusSql(held: SQL): SQL {
  const moved = statusChange(EFFECTS[HELD_CODE].status, sql`status`) ?? sql`status`;
  return sql`case when ${held} then ${moved} else status end`;
}
