import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import type { webhookEvents } from "@/db/schema";
import { invalidParameter } from "@/lib/foundation/errors";
import { isWebhookEventType } from "@/lib/records/timeline/webhook-event-types.shared";
import { buildPayloadObjects, TEST_EVENT_TYPE } from "./build-payloads";
import { rowsOf } from "./rows";

export const FEED_MAX_LIMIT = 1000;
export const FEED_DEFAULT_LIMIT = 100;
export const FEED_MAX_WAIT_SECONDS = 30;
const POLL_MS = 250;

export interface FeedQuery {
  after: { txId: number; seq: number };
  types: string[] | null;
  limit: number;
  waitMs: number;
}

/** GET /v1/events' query string; each problem names its parameter. */
export function parseFeedQuery(params: URLSearchParams): FeedQuery {
  const after = params.get("after");
  let cursor = { txId: 0, seq: 0 };
  if (after !== null && after !== "") {
    const match = /^(\d{1,18})\.(\d{1,18})$/.exec(after);
    if (!match)
      throw invalidParameter(
        "after",
        'after must be a cursor from a previous page\'s meta.nextCursor (e.g. "5021.88").',
      );
    cursor = { txId: Number(match[1]), seq: Number(match[2]) };
  }
  const typesParam = params.get("types");
  const types = typesParam ? typesParam.split(",").map((type) => type.trim()) : null;
  const unknown = types?.find((type) => !isWebhookEventType(type));
  if (unknown !== undefined)
    throw invalidParameter("types", `types has an unknown event type "${unknown.slice(0, 60)}".`);
  return {
    after: cursor,
    types,
    limit: wholeNumber(params, "limit", 1, FEED_MAX_LIMIT, FEED_DEFAULT_LIMIT),
    waitMs: wholeNumber(params, "wait", 0, FEED_MAX_WAIT_SECONDS, 0) * 1000,
  };
}

function wholeNumber(params: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const value = params.get(name);
  if (value === null || value === "") return fallback;
  if (!/^\d{1,6}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw invalidParameter(name, `${name} must be a whole number from ${min} to ${max}.`);
  }
  return Number(value);
}

type EventRow = typeof webhookEvents.$inferSelect;

/**
 * The event feed (docs/webhooks.md#the-event-feed): only events of transactions older than every running one, so the
 * order is final. With `wait`, an empty page polls until an event arrives or time is up.
 */
export async function listEventFeed(workspaceId: string, query: FeedQuery, signal?: AbortSignal) {
  const deadline = Date.now() + query.waitMs;
  let rows = await readPage(workspaceId, query);
  while (rows.length === 0 && Date.now() < deadline && !signal?.aborted) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))));
    rows = await readPage(workspaceId, query);
  }
  const payloads = await buildPayloadObjects(await getDb(), rows);
  const last = rows[rows.length - 1];
  const next = last ? `${last.txId}.${last.seq}` : `${query.after.txId}.${query.after.seq}`;
  return { events: rows.map((row) => payloads.get(row.id)!), nextCursor: next, hasMore: rows.length === query.limit };
}

async function readPage(workspaceId: string, query: FeedQuery): Promise<EventRow[]> {
  const db = await getDb();
  const typeFilter = query.types
    ? sql`and type in (${sql.join(
        query.types.map((type) => sql`${type}`),
        sql`, `,
      )})`
    : sql``;
  const rows = rowsOf<{
    seq: string;
    id: string;
    workspace_id: string;
    tx_id: string;
    type: string;
    email_message_id: string | null;
    log_id: string | null;
    workflow_run_id: string | null;
    inbound_message_id: string | null;
    data: Record<string, unknown> | null;
    bot: boolean;
    created_ms: string | number;
  }>(
    await db.execute(sql`
      select seq, id, workspace_id, tx_id, type, email_message_id, log_id, workflow_run_id, inbound_message_id, data, bot, round(extract(epoch from created_at) * 1000)::bigint as created_ms from webhook_events
      where workspace_id = ${workspaceId} and (tx_id, seq) > (${query.after.txId}, ${query.after.seq})
        and tx_id < (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint and type <> ${TEST_EVENT_TYPE} ${typeFilter}
      order by tx_id, seq limit ${query.limit}`),
  );
  return rows.map((row) => ({
    seq: Number(row.seq),
    id: row.id,
    workspaceId: row.workspace_id,
    txId: Number(row.tx_id),
    type: row.type,
    emailMessageId: row.email_message_id,
    logId: row.log_id,
    workflowRunId: row.workflow_run_id,
    inboundMessageId: row.inbound_message_id,
    data: row.data,
    bot: row.bot,
    createdAt: new Date(Number(row.created_ms)),
  }));
}
