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

/** creationEventsCtes' two JSON parameters: the timeline rows, and the webhook rows (none for sandbox messages). */
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
 * New messages' first events as CTEs of the accept statement; their effects are the inserted columns, since a
 * statement cannot update the rows it inserts. A held event is written only where `held.where` holds.
 */
export function creationEventsCtes(json: { logs: SQL; outbox: SQL }, held: { message: SQL; where: SQL }): SQL {
  return sql`logs as (${jsonRowsInsert(emailMessageLogs, LOG_KEYS, json.logs, {
    computed: { message: sql`coalesce(message, ${held.message})` },
    where: sql`message is not null or ${held.where}`,
  })}),
    outbox as (${jsonRowsInsert(webhookEvents, OUTBOX_KEYS, json.outbox)})`;
}

export const HELD_CODE = "EMAIL_MESSAGE_PAUSED" satisfies EventCode;

type NewRow = Parameters<typeof applyEffect>[0] & { id: string; workspaceId: string };

/** Held events' effects come later: heldStatusSql in the statement, withHeldEffects on the returned rows. */
export function withCreationEffects(rows: NewRow[], events: CreationEvent[]): void {
  applyTo(
    rows,
    events.filter((event) => event.message !== null),
  );
}

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

/** A held event changes only the status (effects.test.ts compares the columns with recordEvent's). */
export function heldStatusSql(held: SQL): SQL {
  const moved = statusChange(EFFECTS[HELD_CODE].status, sql`status`) ?? sql`status`;
  return sql`case when ${held} then ${moved} else status end`;
}
