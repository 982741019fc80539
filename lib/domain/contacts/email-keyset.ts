import "server-only";
import { asc, desc, gt, gte, like, lt, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

// Paging and prefix search on a unique lower-cased `email` column: the (workspace_id, email) index serves both.
export interface EmailPageRequest {
  prefix?: string;
  after?: string;
  before?: string;
  limit: number;
}

export interface EmailPage<T> {
  items: T[];
  /** Pass as `after` for the next page; null at the end. */
  nextAfter: string | null;
  /** Pass as `before` for the previous page; null at the start. */
  previousBefore: string | null;
}

/**
 * LIKE 'p%' cannot use a btree under a non-C collation, so the prefix also becomes a range; the upper bound only when
 * the incremented last character stays a letter or digit, which orders alike in C and linguistic collations.
 */
export function emailPrefixConditions(email: PgColumn, prefix: string): SQL[] {
  const escaped = prefix.replace(/[\\%_]/g, (character) => `\\${character}`);
  const conditions: SQL[] = [gte(email, prefix), like(email, `${escaped}%`)];
  const last = prefix.at(-1) ?? "";
  if (/[a-y0-8]/.test(last))
    conditions.push(lt(email, `${prefix.slice(0, -1)}${String.fromCharCode(last.charCodeAt(0) + 1)}`));
  return conditions;
}

export function emailCursorCondition(email: PgColumn, request: EmailPageRequest): SQL | undefined {
  if (request.before !== undefined) return lt(email, request.before);
  if (request.after !== undefined) return gt(email, request.after);
  return undefined;
}

export function emailOrder(email: PgColumn, request: EmailPageRequest) {
  return request.before !== undefined ? desc(email) : asc(email);
}

/** Turns `limit + 1` fetched rows into a page and its cursors (probing the other direction when needed). */
export async function toEmailPage<T extends { email: string }>(
  rows: T[],
  request: EmailPageRequest,
  existsBefore: (email: string) => Promise<boolean>,
): Promise<EmailPage<T>> {
  const backwards = request.before !== undefined;
  const more = rows.length > request.limit;
  const items = rows.slice(0, request.limit);
  if (backwards) items.reverse();
  const first = items[0];
  const last = items.at(-1);
  const hasNext = backwards ? Boolean(last) : more;
  const hasPrevious = backwards
    ? more
    : Boolean(first) && request.after !== undefined && (await existsBefore(first.email));
  return {
    items,
    nextAfter: hasNext && last ? last.email : null,
    previousBefore: hasPrevious && first ? first.email : null,
  };
}
