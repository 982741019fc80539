import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { contacts } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { executePrepared } from "@/db/execute-prepared";
import { jsonRecords, jsonRowsInsert } from "@/db/insert-json-rows";

/** A display name sets the contact's name, a bare address keeps it; one statement, rows in address order (no deadlocks). */
export async function upsertContacts(
  db: Executor,
  workspaceId: string,
  recipients: Array<{ address: string; name: string | null }>,
) {
  const rows = contactRows(workspaceId, recipients);
  if (rows.length > 0) await executePrepared(db, contactsUpsert(sql`${contactsJson(rows)}`));
}

/** One per address (an upsert may not touch a row twice), sorted so concurrent sends lock in the same order. */
export function contactRows(
  workspaceId: string,
  recipients: Array<{ address: string; name: string | null }>,
): Array<typeof contacts.$inferInsert> {
  const byEmail = new Map<string, string | null>();
  for (const recipient of recipients) {
    const email = recipient.address.toLowerCase();
    byEmail.set(email, recipient.name ?? byEmail.get(email) ?? null);
  }
  return [...byEmail.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([email, name]) => ({ id: newId("contact"), workspaceId, email, name }));
}

const CONTACT_KEYS: Array<keyof typeof contacts.$inferInsert> = ["id", "workspaceId", "email", "name"];

export const contactsJson = (rows: Array<typeof contacts.$inferInsert>): string =>
  jsonRecords(contacts, CONTACT_KEYS, rows);

/** One text for any number of rows (prepared), also a CTE of lib/sending/accept-statement.ts. */
export function contactsUpsert(rowsJson: SQL): SQL {
  return jsonRowsInsert(contacts, CONTACT_KEYS, rowsJson, {
    onConflict: sql`on conflict (workspace_id, email) do update set name = coalesce(excluded.name, ${contacts.name}), updated_at = now()`,
  });
}
