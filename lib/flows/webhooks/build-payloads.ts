import "server-only";
import { getTableColumns, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { emailMessageLogs, emailMessages, type webhookEvents } from "@/db/schema";
import type { EmailMessageRow } from "@/lib/domain/messages/get-message-or-throw";
import { serializeEvent, serializeMessage } from "@/lib/domain/messages/serialize";
import { getWorkflowRunOrThrowIn, type WorkflowRunView } from "@/lib/flows/workflows/get-workflow-run-or-throw";
import { serializeWorkflowRun } from "@/lib/flows/workflows/serialize";
import { inboundMessagesOf, type InboundPayload } from "./inbound-payloads";

export type WebhookEventRow = typeof webhookEvents.$inferSelect;

/** The type of "send test event" (never in the feed, never fanned out). */
export const TEST_EVENT_TYPE = "webhook.test";

/** What serializeMessage reads: the row without its bodies, headers and attachments (never sent in a webhook). */
const {
  bodyHtml: _html,
  bodyText: _text,
  headers: _headers,
  attachments: _attachments,
  ...MESSAGE_COLUMNS
} = getTableColumns(emailMessages);

/**
 * Payloads (docs/webhooks.md#payload-version-1) built when sent or served: the message as GET shows it then (`null` once erased),
 * the event's log entry, and for workflow_run.* the run. Three queries for any number of events.
 */
export async function buildPayloadObjects(
  db: Executor,
  events: WebhookEventRow[],
): Promise<Map<string, Record<string, unknown>>> {
  const messageIds = [...new Set(events.map((event) => event.emailMessageId).filter((id): id is string => !!id))];
  const logIds = [...new Set(events.map((event) => event.logId).filter((id): id is string => !!id))];
  const [messages, logs] = await Promise.all([
    messageIds.length
      ? db.select(MESSAGE_COLUMNS).from(emailMessages).where(inArray(emailMessages.id, messageIds))
      : [],
    logIds.length ? db.select().from(emailMessageLogs).where(inArray(emailMessageLogs.id, logIds)) : [],
  ]);
  const messageById = new Map(messages.map((row) => [row.id, row]));
  const logById = new Map(logs.map((row) => [row.id, row]));
  const payloads = new Map<string, Record<string, unknown>>();
  const runs = await workflowRunsOf(db, events);
  const inbound = await inboundMessagesOf(db, events);
  for (const event of events) {
    if (event.data) {
      // An event about the workspace (workspace.deliverability_warning): its data as raised.
      payloads.set(event.id, {
        id: event.id,
        type: event.type,
        createdAt: event.createdAt.toISOString(),
        data: event.data,
      });
      continue;
    }
    if (event.workflowRunId) {
      const run = runs.get(event.workflowRunId);
      payloads.set(event.id, {
        id: event.id,
        type: event.type,
        createdAt: event.createdAt.toISOString(),
        data: { workflowRun: run ? serializeWorkflowRun(run) : null },
      });
      continue;
    }
    const message = event.emailMessageId ? messageById.get(event.emailMessageId) : undefined;
    const log = event.logId ? logById.get(event.logId) : undefined;
    payloads.set(event.id, {
      id: event.id,
      type: event.type,
      createdAt: event.createdAt.toISOString(),
      data: {
        message:
          message && message.workspaceId === event.workspaceId ? serializeMessage(message as EmailMessageRow) : null,
        event: log ? { ...serializeEvent(log), bot: log.bot } : null,
        ...(event.inboundMessageId ? { inboundMessage: inboundOf(inbound, event) } : {}),
      },
    });
  }
  return payloads;
}

/** Tenant-checked like `message`: a row of another workspace is never put in a payload. */
function inboundOf(inbound: Map<string, InboundPayload>, event: WebhookEventRow) {
  const found = inbound.get(event.inboundMessageId ?? "");
  return found && found.workspaceId === event.workspaceId ? found.inboundMessage : null;
}

/** The runs of workflow_run.* events (rare: one query pair each). */
async function workflowRunsOf(db: Executor, events: WebhookEventRow[]): Promise<Map<string, WorkflowRunView>> {
  const runs = new Map<string, WorkflowRunView>();
  for (const event of events) {
    if (!event.workflowRunId || runs.has(event.workflowRunId)) continue;
    const run = await getWorkflowRunOrThrowIn(db, event.workspaceId, event.workflowRunId).catch(() => null);
    if (run) runs.set(run.id, run);
  }
  return runs;
}

export async function buildPayloads(db: Executor, events: WebhookEventRow[]): Promise<Map<string, string>> {
  const objects = await buildPayloadObjects(db, events);
  return new Map([...objects].map(([id, payload]) => [id, JSON.stringify(payload)]));
}
