import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { emailMessages, webhookEvents } from "@/db/schema/index";
import { wellFormedJson } from "@/db/well-formed-json";
import { executePrepared } from "@/db/execute-prepared";
import { insertJsonRows } from "@/db/insert-json-rows";
import { newId } from "@/lib/foundation/ids";
import type { EventCode } from "./event-codes.shared";
import { EFFECTS } from "./effects";

export interface EmittedLog {
  logId: string;
  messageId: string;
  workspaceId: string;
  code: EventCode;
  bot?: boolean;
  at: Date;
  /** The inbound mail the event is about (email.replied). */
  inboundMessageId?: string;
}

/** Written even without an endpoint: the pullable feed serves them too (docs/webhooks.md#delivery). */
export async function emitWebhookEvents(db: Executor, logs: EmittedLog[]): Promise<void> {
  const rows = logs
    .filter((log) => EFFECTS[log.code].webhook)
    .map((log, n) => ({
      n,
      id: newId("webhookEvent", log.at),
      workspace_id: log.workspaceId,
      type: EFFECTS[log.code].webhook!,
      email_message_id: log.messageId,
      log_id: log.logId,
      bot: log.bot ?? false,
      created_at: log.at.toISOString(),
      inbound_message_id: log.inboundMessageId ?? null,
    }));
  if (rows.length === 0) return;
  const m = emailMessages;
  const e = webhookEvents;
  const name = (column: { name: string }) => sql.identifier(column.name);
  // In input order (n), so events recorded together keep their order on seq. The sandbox flag is a scalar
  // subquery, one primary-key lookup per row, where a join let the planner hash the whole table.
  await executePrepared(
    db,
    sql`
    insert into ${e} (${name(e.id)}, ${name(e.workspaceId)}, ${name(e.type)}, ${name(e.emailMessageId)}, ${name(e.logId)}, ${name(e.bot)}, ${name(e.createdAt)}, ${name(e.inboundMessageId)})
    select i.id, i.workspace_id, i.type, i.email_message_id, i.log_id, i.bot, i.created_at, i.inbound_message_id
    from json_to_recordset(${wellFormedJson(rows)}::json) as i(
      n int, id text, workspace_id text, type text, email_message_id text, log_id text, bot boolean, created_at timestamptz, inbound_message_id text)
    where not coalesce((select ${m.sandbox} from ${m} where ${m.id} = i.email_message_id and ${m.workspaceId} = i.workspace_id), true)
    order by i.n`,
  );
}

/** In the transaction that ends the run: the same outbox and feed as the timeline's events. */
export async function emitWorkflowRunEvent(
  db: Executor,
  run: { id: string; workspaceId: string; sandbox: boolean },
  type: "workflow_run.completed" | "workflow_run.failed",
  at = new Date(),
): Promise<void> {
  if (run.sandbox) return;
  await db.insert(webhookEvents).values({
    id: newId("webhookEvent", at),
    workspaceId: run.workspaceId,
    type,
    workflowRunId: run.id,
    createdAt: at,
  });
}

/** In the transaction that stores inbound mail: email.received for each, linked to the message it answers if any. */
export async function emitInboundReceivedEvents(
  db: Executor,
  inbounds: Array<{ id: string; workspaceId: string; originalMessageId: string | null }>,
  at = new Date(),
): Promise<void> {
  // One statement for a group's mails, prepared (insertJsonRows: the rows are one JSON parameter).
  await insertJsonRows(
    db,
    webhookEvents,
    inbounds.map((inbound) => ({
      id: newId("webhookEvent", at),
      workspaceId: inbound.workspaceId,
      type: "email.received" as const,
      emailMessageId: inbound.originalMessageId,
      inboundMessageId: inbound.id,
      createdAt: at,
    })),
  );
}
