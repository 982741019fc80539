import "server-only";
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import { getDb } from "@/db/client";
import { closePage } from "@/db/keyset";
import { emailMessageRecipients, emailMessages } from "@/db/schema";
import { invalidParameter } from "@/lib/foundation/errors";
import type { KeysetPageQuery } from "@/lib/foundation/pagination";

const m = emailMessages;
const r = emailMessageRecipients;

interface Keyed {
  createdAt: Date;
  id: string;
}

// Walks the recipients' primary key (workspace, address, created_at, id) rather than the created index, so a page
// reads its rows and stops however much mail the address has had. Same cursors and answers as keysetPage.
/** `columns` are the ones the caller answers with (its `Row`): never the bodies for a list. */
export async function listMessagesToRecipient<Row extends Keyed>(
  workspaceId: string,
  address: string,
  filters: SQL[],
  page: KeysetPageQuery,
  columns: SelectedFields,
) {
  const db = await getDb();
  let anchor: Keyed | undefined;
  if (page.cursor) {
    [anchor] = await db
      .select({ createdAt: m.createdAt, id: m.id })
      .from(m)
      .where(and(eq(m.workspaceId, workspaceId), eq(m.id, page.cursor.id)));
    if (!anchor) throw invalidParameter(`cursor.${page.cursor.direction}`, `No object ${page.cursor.id} to page from.`);
  }
  const where = [eq(r.workspaceId, workspaceId), eq(r.address, address), ...filters];
  const older = (row: Keyed) =>
    sql`(${r.createdAt}, ${r.emailMessageId}) < (${row.createdAt.toISOString()}::timestamptz, ${row.id})`;
  const newer = (row: Keyed) =>
    sql`(${r.createdAt}, ${r.emailMessageId}) > (${row.createdAt.toISOString()}::timestamptz, ${row.id})`;
  const join = and(eq(m.id, r.emailMessageId), eq(m.workspaceId, r.workspaceId));
  const backwards = page.cursor?.direction === "before";
  const rows = (await db
    .select(columns)
    .from(r)
    .innerJoin(m, join)
    .where(and(...where, anchor ? (backwards ? newer(anchor) : older(anchor)) : undefined))
    .orderBy(...(backwards ? [asc(r.createdAt), asc(r.emailMessageId)] : [desc(r.createdAt), desc(r.emailMessageId)]))
    .limit(page.limit + 1)) as unknown as Row[];
  const exists = async (condition: SQL) =>
    (
      await db
        .select({ id: r.emailMessageId })
        .from(r)
        .innerJoin(m, join)
        .where(and(...where, condition))
        .limit(1)
    ).length > 0;
  return closePage(rows, page, { backwards, anchor, exists, older, newer });
}
