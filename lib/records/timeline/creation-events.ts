import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { emailMessageLogs, webhookEvents } from "@/db/schema/index";
import { jsonRecords, jsonRowsInsert } from "@/db/insert-json-rows";
import { newId } from "@/lib/foundation/ids";
import type { EventCode } from "./event-codes.shared";
import { WEBHOOK_TYPE_OF_CODE } from "./webhook-event-types.shared";

/** A timeline event of new messages. `message: null` marks a held (PAUSED) event: see creationEventsCtes. */
export interface CreationEvent {
  workspaceId: string;
  messageId: string;
  sandbox: boolean;
  code: EventCode;
  message: string | null;
  at: Date;
}

const LOG_KEYS: Array<keyof typeof emailMessageLogs.$inferInsert> = ["id", "workspaceId", "emailMessageId", "code", "message", "createdAt", "updatedAt"];
const OUTBOX_KEYS: Array<keyof typeof webhookEvents.$inferInsert> = ["id", "workspaceId", "type", "emailMessageId", "logId", "createdAt"];

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
    const type = events[index]!.sandbox ? undefined : WEBHOOK_TYPE_OF_CODE[log.code];
    return type ? [{ id: newId("webhookEvent", log.createdAt), workspaceId: log.workspaceId, type, emailMessageId: log.emailMessageId, logId: log.id, createdAt: log.createdAt }] : [];
  });
  return { logs: jsonRecords(emailMessageLogs, LOG_KEYS, logs), outbox: jsonRecords(webhookEvents, OUTBOX_KEYS, outbox) };
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
