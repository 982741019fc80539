import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { contacts } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { notFound } from "@/lib/foundation/errors";

/**
 * The locale a contact's mail renders in when a send names none (docs/templates.md#where-the-locale-comes-from);
 * null clears it. `locale` is canonical already: the caller checks it with canonicalLocaleOrThrow (templates/ sits
 * above contacts/ on the floors). Audited when it changes.
 */
export async function setContactLocale(
  workspaceId: string,
  contactId: string,
  canonical: string | null,
  actor: AuditActor,
): Promise<string | null> {
  return (await getDb()).transaction(async (tx) => {
    const mine = and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId));
    const [contact] = await tx
      .select({ email: contacts.email, locale: contacts.locale })
      .from(contacts)
      .where(mine)
      .for("update");
    if (!contact) throw notFound(`Contact ${contactId}`, "id");
    if (contact.locale === canonical) return canonical;
    await tx.update(contacts).set({ locale: canonical, updatedAt: new Date() }).where(mine);
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: "contact.update",
      target: { type: "contact", id: contactId },
      before: { email: contact.email, locale: contact.locale },
      after: { email: contact.email, locale: canonical },
    });
    return canonical;
  });
}
