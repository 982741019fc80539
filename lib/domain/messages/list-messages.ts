import "server-only";
import { arrayContains, eq, gt, gte, ilike, lt, lte, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { keysetPage } from "@/db/keyset";
import { MESSAGE_FAMILY } from "@/lib/records/partitions/family";
import { keyMadeBefore, keyMadeFrom } from "@/lib/records/partitions/prune";
import { listMessagesToRecipient } from "./list-messages-to-recipient";
import type { MessageListQuery } from "./message-list-query";
import { MESSAGE_API_COLUMNS, type ApiMessageRow } from "./serialize";

const m = emailMessages;
/** The API's columns, and the ones the dashboard's Emails table adds: no body, attachment or header. */
const LIST_COLUMNS = {
  ...MESSAGE_API_COLUMNS,
  sandbox: m.sandbox,
  contentPurgedAt: m.contentPurgedAt,
  submittedVia: m.submittedVia,
  handedOverAt: m.handedOverAt,
};
type ListRow = ApiMessageRow &
  Pick<typeof m.$inferSelect, "sandbox" | "contentPurgedAt" | "submittedVia" | "handedOverAt">;

/**
 * Newest first, keyset cursors both ways (docs/api.md#decided-listing-messages): every query walks an index, so a page
 * costs the same at any depth, and only the API's columns are read.
 */
export async function listMessages(workspaceId: string, query: MessageListQuery) {
  const page = { limit: query.limit, cursor: query.cursor };
  if (query.to !== undefined)
    return listMessagesToRecipient<ListRow>(workspaceId, query.to.toLowerCase(), filtersOf(query), page, LIST_COLUMNS);
  const table = {
    db: await getDb(),
    table: m,
    createdAt: m.createdAt,
    id: m.id,
    scope: eq(m.workspaceId, workspaceId),
    filters: filtersOf(query),
    columns: LIST_COLUMNS,
    keyBounds: MESSAGE_KEY_BOUNDS,
  };
  return keysetPage<ListRow>(table, page);
}

/** A cursor's page reads only the day partitions on its side of the cursor. */
const MESSAGE_KEY_BOUNDS = {
  before: (at: Date) => keyMadeBefore(MESSAGE_FAMILY, m.id, at),
  from: (at: Date) => keyMadeFrom(MESSAGE_FAMILY, m.id, at),
};

function filtersOf(query: MessageListQuery): SQL[] {
  const filters: SQL[] = [];
  const { createdAt } = query;
  // Each time bound also bounds the id, so the plan leaves out the day partitions outside it (ids carry their time).
  if (createdAt.gt) filters.push(gt(m.createdAt, createdAt.gt), keyMadeFrom(MESSAGE_FAMILY, m.id, createdAt.gt));
  if (createdAt.gte) filters.push(gte(m.createdAt, createdAt.gte), keyMadeFrom(MESSAGE_FAMILY, m.id, createdAt.gte));
  if (createdAt.lt) filters.push(lt(m.createdAt, createdAt.lt), keyMadeBefore(MESSAGE_FAMILY, m.id, createdAt.lt));
  if (createdAt.lte) filters.push(lte(m.createdAt, createdAt.lte), keyMadeBefore(MESSAGE_FAMILY, m.id, createdAt.lte));
  if (query.status) filters.push(eq(m.status, query.status));
  if (query.source) filters.push(eq(m.source, query.source));
  if (query.templateId !== undefined) filters.push(eq(m.templateId, query.templateId));
  if (query.batchId !== undefined) filters.push(eq(m.batchId, query.batchId));
  if (query.metaId !== undefined) filters.push(eq(m.metaId, query.metaId));
  // Containment, which the GIN index email_messages_tags_idx answers.
  if (query.tags?.length) filters.push(arrayContains(m.tags, query.tags));
  // Backslash is LIKE's escape character: the caller's % and _ are text, not wildcards.
  if (query.subject !== undefined) filters.push(ilike(m.subject, `%${query.subject.replace(/[\\%_]/g, "\\$&")}%`));
  if (query.sandbox !== undefined) filters.push(eq(m.sandbox, query.sandbox));
  if (query.scheduled === true) {
    filters.push(
      sql`${m.scheduledAt} is not null and ${m.status} in ('PENDING', 'PAUSED') and ${m.handedOverAt} is null`,
    );
  }
  if (query.scheduled === false) filters.push(sql`${m.scheduledAt} is null`);
  return filters;
}
