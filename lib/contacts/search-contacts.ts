import "server-only";
import { and, eq, ilike, or, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { contacts } from "@/db/schema";
import { emailCursorCondition, emailOrder, emailPrefixConditions, toEmailPage, type EmailPage, type EmailPageRequest } from "./email-keyset";

export interface ContactRow {
  id: string;
  email: string;
  name: string | null;
  createdAt: Date;
}

export const CONTACTS_PAGE_SIZE = 50;

/**
 * The workspace's contacts, alphabetically by address, keyset-paged on the (workspace_id, email)
 * unique index. A query with "@" is an address prefix (an index range). Without "@" it matches the
 * start of the address or of the name (case-insensitive): the name has no index, so that walks the
 * workspace's contacts in address order until the page is full.
 */
export async function searchContacts(workspaceId: string, request: Omit<EmailPageRequest, "limit"> & { query?: string; limit?: number }): Promise<EmailPage<ContactRow>> {
  const limit = Math.min(Math.max(Math.trunc(request.limit ?? CONTACTS_PAGE_SIZE), 1), 200);
  const page = { ...request, limit };
  const query = request.query?.trim().toLowerCase() ?? "";
  const match = query === "" ? undefined : query.includes("@") ? and(...emailPrefixConditions(contacts.email, query)) : nameOrEmailPrefix(query);
  const db = await getDb();
  const scope = and(eq(contacts.workspaceId, workspaceId), match);
  const rows = await db
    .select({ id: contacts.id, email: contacts.email, name: contacts.name, createdAt: contacts.createdAt })
    .from(contacts)
    .where(and(scope, emailCursorCondition(contacts.email, page)))
    .orderBy(emailOrder(contacts.email, page))
    .limit(limit + 1);
  return toEmailPage(rows, page, async (email) => {
    const earlier = await db.select({ id: contacts.id }).from(contacts).where(and(scope, sql`${contacts.email} < ${email}`)).limit(1);
    return earlier.length > 0;
  });
}

function nameOrEmailPrefix(query: string) {
  const escaped = query.replace(/[\\%_]/g, (character) => `\\${character}`);
  return or(and(...emailPrefixConditions(contacts.email, query)), ilike(contacts.name, `${escaped}%`));
}
