import "server-only";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { contacts } from "@/db/schema";
import {
  emailCursorCondition,
  emailOrder,
  emailPrefixConditions,
  toEmailPage,
  type EmailPage,
  type EmailPageRequest,
} from "./email-keyset";

export interface ContactRow {
  id: string;
  email: string;
  name: string | null;
  locale: string | null;
  createdAt: Date;
}

export const CONTACTS_PAGE_SIZE = 50;

const columns = {
  id: contacts.id,
  email: contacts.email,
  name: contacts.name,
  locale: contacts.locale,
  createdAt: contacts.createdAt,
};

/**
 * Alphabetical, keyset-paged. A query with "@" is an address prefix; without, address or name prefix, read as two index
 * ranges merged here (one `OR` would walk every contact in address order when few match).
 */
export async function searchContacts(
  workspaceId: string,
  request: Omit<EmailPageRequest, "limit"> & { query?: string; limit?: number },
): Promise<EmailPage<ContactRow>> {
  const limit = Math.min(Math.max(Math.trunc(request.limit ?? CONTACTS_PAGE_SIZE), 1), 200);
  const page = { ...request, limit };
  const query = request.query?.trim().toLowerCase() ?? "";
  const inWorkspace = eq(contacts.workspaceId, workspaceId);
  const scopes: SQL[] =
    query === "" ? [inWorkspace] : [and(inWorkspace, ...emailPrefixConditions(contacts.email, query))!];
  if (query !== "" && !query.includes("@")) scopes.push(and(inWorkspace, namePrefix(query))!);
  const db = await getDb();
  const pages = await Promise.all(
    scopes.map((scope) =>
      db
        .select(columns)
        .from(contacts)
        .where(and(scope, emailCursorCondition(contacts.email, page)))
        .orderBy(emailOrder(contacts.email, page))
        .limit(limit + 1),
    ),
  );
  const backwards = page.before !== undefined;
  const byId = new Map(pages.flat().map((row) => [row.id, row]));
  const rows = [...byId.values()]
    .sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0) * (backwards ? -1 : 1))
    .slice(0, limit + 1);
  return toEmailPage(rows, page, async (email) => {
    const earlier = await Promise.all(
      scopes.map((scope) =>
        db
          .select({ id: contacts.id })
          .from(contacts)
          .where(and(scope, sql`${contacts.email} < ${email}`))
          .limit(1),
      ),
    );
    return earlier.some((found) => found.length > 0);
  });
}

/** lower(name) LIKE 'prefix%': a range of contacts_workspace_name_idx (text_pattern_ops, any collation). */
function namePrefix(query: string): SQL {
  const escaped = query.replace(/[\\%_]/g, (character) => `\\${character}`);
  return sql`lower(${contacts.name}) like ${`${escaped}%`}`;
}
