import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { emailMessageLogs, webhookEvents } from "@/db/schema/index";
import { jsonRowsInsert } from "@/db/insert-json-rows";
import { newId } from "@/lib/ids";
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

/**
 * The first timeline entries of new messages and their webhook outbox/feed rows (emit-webhook-events.ts:
 * codes without a webhook type and sandbox messages write none), as two CTEs, `logs` and `outbox`, of
 * the accept statement (lib/sending/accept-statement.ts), which inserts the messages in the same
 * statement: their effects are the columns the messages are inserted with, since a statement cannot
 * update the rows it inserts. A held event (message null) is written only where `held.where` holds
 * (the workspace turned out paused), with `held.message` as its sentence: both are SQL over the row's
 * `workspace_id`. Every other event is written as it is, and a held event has no webhook type.
 */
export function creationEventsCtes(events: CreationEvent[], held: { message: SQL; where: SQL }): SQL {
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
  return sql`logs as (${jsonRowsInsert(emailMessageLogs, ["id", "workspaceId", "emailMessageId", "code", "message", "createdAt", "updatedAt"], logs, {
    computed: { message: sql`coalesce(message, ${held.message})` },
    where: sql`message is not null or ${held.where}`,
  })}),
    outbox as (${jsonRowsInsert(webhookEvents, ["id", "workspaceId", "type", "emailMessageId", "logId", "createdAt"], outbox)})`;
}
