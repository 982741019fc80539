import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { contacts } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { executePrepared } from "@/db/execute-prepared";
import { jsonRecords, jsonRowsInsert } from "@/db/insert-json-rows";

/** What a send knows of a recipient: a locale is given only when the send named one (the `to` recipients). */
export type ContactInput = { address: string; name: string | null; locale?: string | null };

/**
 * A display name sets the contact's name, a bare address keeps it; a locale sets the contact's, none keeps it
 * (docs/templates.md#where-the-locale-comes-from). One statement, rows in address order (no deadlocks).
 */
export async function upsertContacts(db: Executor, workspaceId: string, recipients: ContactInput[]) {
  const rows = contactRows(workspaceId, recipients);
  if (rows.length > 0) await executePrepared(db, contactsUpsert(sql`${contactsJson(rows)}`));
}

/** One per address (an upsert may not touch a row twice), sorted so concurrent sends lock in the same order. */
export function contactRows(workspaceId: string, recipients: ContactInput[]): Array<typeof contacts.$inferInsert> {
  const byEmail = new Map<string, { name: string | null; locale: string | null }>();
  for (const recipient of recipients) {
    const email = recipient.address.toLowerCase();
    const known = byEmail.get(email);
    byEmail.set(email, {
      name: recipient.name ?? known?.name ?? null,
      locale: recipient.locale ?? known?.locale ?? null,
    });
  }
  return [...byEmail.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([email, { name, locale }]) => ({ id: newId("contact"), workspaceId, email, name, locale }));
}

const CONTACT_KEYS: Array<keyof typeof contacts.$inferInsert> = ["id", "workspaceId", "email", "name", "locale"];

export const contactsJson = (rows: Array<typeof contacts.$inferInsert>): string =>
  jsonRecords(contacts, CONTACT_KEYS, rows);

/** One text for any number of rows (prepared), also a CTE of lib/sending/accept-statement.ts. */
export function contactsUpsert(rowsJson: SQL): SQL {
  return jsonRowsInsert(contacts, CONTACT_KEYS, rowsJson, {
    onConflict: sql`on conflict (workspace_id, email) do update set name = coalesce(excluded.name, ${contacts.name}), locale = coalesce(excluded.locale, ${contacts.locale}), updated_at = now()`,
  });
}
