import "server-only";
import { and, eq, getTableColumns, gte, lt, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { keysetPage } from "@/db/keyset";
import { inboundMessages as im, type InboundAttachmentJson } from "@/db/schema";
import { getAttachmentStorage } from "@/lib/domain/attachments/storage";
import { isId } from "@/lib/foundation/ids";
import type { KeysetPageQuery } from "@/lib/foundation/pagination";

// The dashboard's reads of inbound mail (docs/dashboard.md#inbound-inbound): the Inbound list, a message, the replies
// to a sent message, an attachment's bytes. Tenant-scoped; an unknown id and another workspace's id read the same.

export type InboundRow = typeof im.$inferSelect;
/** A list row: everything but the bodies and headers, which can be megabytes. */
export type InboundListRow = Omit<InboundRow, "textBody" | "htmlBody" | "headers">;
const { textBody: _text, htmlBody: _html, headers: _headers, ...LIST_COLUMNS } = getTableColumns(im);

/** The Inbound page's filters, named as GET /v1/inbound_messages' query parameters. */
export interface InboundDashboardQuery extends KeysetPageQuery {
  createdAt: { gte?: Date; lt?: Date };
  status?: "RECEIVED" | "QUARANTINED";
  routeId?: string;
  originalMessageId?: string;
  /** A recipient or sender address, lower-cased. */
  address?: string;
  spf?: string;
  dkim?: string;
  dmarc?: string;
  spam?: string;
}

function filtersOf(query: InboundDashboardQuery): SQL[] {
  const filters: SQL[] = [];
  if (query.createdAt.gte) filters.push(gte(im.createdAt, query.createdAt.gte));
  if (query.createdAt.lt) filters.push(lt(im.createdAt, query.createdAt.lt));
  if (query.status) filters.push(eq(im.status, query.status));
  if (query.routeId) filters.push(eq(im.routeId, query.routeId));
  if (query.originalMessageId) filters.push(eq(im.originalMessageId, query.originalMessageId));
  if (query.address)
    filters.push(or(eq(im.recipient, query.address), sql`lower(${im.fromAddress}) = ${query.address}`)!);
  if (query.spf) filters.push(eq(im.spf, query.spf));
  if (query.dkim) filters.push(eq(im.dkim, query.dkim));
  if (query.dmarc) filters.push(eq(im.dmarc, query.dmarc));
  if (query.spam) filters.push(eq(im.spamStatus, query.spam));
  return filters;
}

/** Newest first, keyset cursors both ways (db/keyset.ts); an unknown cursor is a 400 naming it. */
export async function listInboundForDashboard(workspaceId: string, query: InboundDashboardQuery) {
  // The replies of a message page whose URL names no message: nothing to ask the database.
  if (query.originalMessageId !== undefined && !isId("message", query.originalMessageId))
    return {
      items: [] as InboundListRow[],
      meta: { limit: query.limit, count: 0, "cursor.after": null, "cursor.before": null },
    };
  return keysetPage<InboundListRow>(
    {
      db: await getDb(),
      table: im,
      createdAt: im.createdAt,
      id: im.id,
      scope: eq(im.workspaceId, workspaceId),
      filters: filtersOf(query),
      columns: LIST_COLUMNS,
    },
    { limit: query.limit, cursor: query.cursor },
  );
}

/** One inbound mail of the workspace, every field; null for an unknown or foreign id. */
export async function getInboundForDashboard(workspaceId: string, id: string): Promise<InboundRow | null> {
  // A URL segment is anything (a NUL would reach PostgreSQL as an error): only an id can name a message.
  if (!isId("inboundMessage", id)) return null;
  const [row] = await (
    await getDb()
  )
    .select()
    .from(im)
    .where(and(eq(im.workspaceId, workspaceId), eq(im.id, id)));
  return row ?? null;
}

/** An attachment of an inbound mail of the workspace with its bytes; null when unknown, foreign or purged. */
export async function readInboundAttachmentForDashboard(
  workspaceId: string,
  inboundMessageId: string,
  attachmentId: string,
): Promise<{ file: InboundAttachmentJson; bytes: Buffer } | null> {
  if (!isId("inboundMessage", inboundMessageId)) return null;
  const [row] = await (
    await getDb()
  )
    .select({ attachments: im.attachments })
    .from(im)
    .where(and(eq(im.workspaceId, workspaceId), eq(im.id, inboundMessageId)));
  const file = row?.attachments.find((attachment) => attachment.id === attachmentId);
  if (!file) return null;
  const bytes = await (await getAttachmentStorage()).read(file.storageKey);
  return bytes ? { file, bytes } : null;
}
