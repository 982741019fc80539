import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { contacts, emailMessages as m } from "@/db/schema";
import type { OriginalMessageSummary } from "./serialize-inbound-message";

/**
 * The sent messages some inbound mails answer, by id, with their contact (the first recipient's, when one is kept).
 * Tenant-scoped: an id of another workspace is simply absent.
 */
export async function loadOriginalMessages(
  db: Executor,
  workspaceId: string,
  ids: Array<string | null>,
): Promise<Map<string, OriginalMessageSummary>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  const found = new Map<string, OriginalMessageSummary>();
  if (wanted.length === 0) return found;
  const rows = await db
    .select({
      id: m.id,
      subject: m.subject,
      status: m.status,
      templateId: m.templateId,
      metadata: m.metadata,
      workflowRunId: m.workflowRunId,
      to: m.to,
      toAddresses: m.toAddresses,
    })
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), inArray(m.id, wanted)));
  const emails = [...new Set(rows.map((row) => row.toAddresses[0]).filter((email): email is string => !!email))];
  const contactRows = emails.length
    ? await db
        .select({ id: contacts.id, email: contacts.email })
        .from(contacts)
        .where(and(eq(contacts.workspaceId, workspaceId), inArray(contacts.email, emails)))
    : [];
  const contactOf = new Map(contactRows.map((contact) => [contact.email, contact]));
  for (const row of rows) {
    found.set(row.id, {
      id: row.id,
      // An erased message's subject is gone (serializeMessage says null for it too).
      subject: row.status === "DELETED" ? "" : row.subject,
      templateId: row.templateId,
      metadata: row.metadata,
      workflowRunId: row.workflowRunId,
      to: row.to,
      contact: contactOf.get(row.toAddresses[0] ?? "") ?? null,
    });
  }
  return found;
}
