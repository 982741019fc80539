import "server-only";
import { eq, getTableColumns, gt, gte, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { keysetPage } from "@/db/keyset";
import { inboundMessages as im } from "@/db/schema";
import type { InboundListQuery } from "./inbound-list-query";
import { loadOriginalMessages } from "./original-messages";
import { serializeInboundMessage, type InboundMessageListRow } from "./serialize-inbound-message";

// Bodies and headers can be megabytes: a page never reads them (the one message does).
const { textBody: _text, htmlBody: _html, headers: _headers, ...LIST_COLUMNS } = getTableColumns(im);

/** Newest first, keyset cursors both ways, as every list of the API (db/keyset.ts). */
export async function listInboundMessages(workspaceId: string, query: InboundListQuery) {
  const db = await getDb();
  const { items, meta } = await keysetPage<InboundMessageListRow>(
    {
      db,
      table: im,
      createdAt: im.createdAt,
      id: im.id,
      scope: eq(im.workspaceId, workspaceId),
      filters: filtersOf(query),
      columns: LIST_COLUMNS,
    },
    { limit: query.limit, cursor: query.cursor },
  );
  const originals = await loadOriginalMessages(
    db,
    workspaceId,
    items.map((row) => row.originalMessageId),
  );
  const serialized = items.map((row) =>
    serializeInboundMessage(row, {
      originalMessage: row.originalMessageId ? (originals.get(row.originalMessageId) ?? null) : null,
    }),
  );
  return { items: serialized, rows: items, meta };
}

function filtersOf(query: InboundListQuery): SQL[] {
  const filters: SQL[] = [];
  const { createdAt } = query;
  if (createdAt.gt) filters.push(gt(im.createdAt, createdAt.gt));
  if (createdAt.gte) filters.push(gte(im.createdAt, createdAt.gte));
  if (createdAt.lt) filters.push(lt(im.createdAt, createdAt.lt));
  if (createdAt.lte) filters.push(lte(im.createdAt, createdAt.lte));
  if (query.status) filters.push(eq(im.status, query.status));
  if (query.routeId) filters.push(eq(im.routeId, query.routeId));
  if (query.threadId) filters.push(eq(im.threadId, query.threadId));
  if (query.originalMessageId) filters.push(eq(im.originalMessageId, query.originalMessageId));
  if (query.address)
    filters.push(or(eq(im.recipient, query.address), sql`lower(${im.fromAddress}) = ${query.address}`)!);
  if (query.spf) filters.push(eq(im.spf, query.spf));
  if (query.dkim) filters.push(eq(im.dkim, query.dkim));
  if (query.dmarc) filters.push(eq(im.dmarc, query.dmarc));
  if (query.spam) filters.push(eq(im.spamStatus, query.spam));
  return filters;
}
