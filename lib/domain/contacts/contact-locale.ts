import "server-only";
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { contacts } from "@/db/schema";

/** The locale of the contact with this address (docs/templates.md#where-the-locale-comes-from); null: none or no contact. */
export async function contactLocale(db: Executor, workspaceId: string, address: string): Promise<string | null> {
  const [row] = await db
    .select({ locale: contacts.locale })
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.email, address.toLowerCase())));
  return row?.locale ?? null;
}
