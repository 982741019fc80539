import "server-only";
import { and, asc, desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import {
  contacts,
  emailMessageRecipients,
  emailMessages,
  groupUnsubscribes,
  suppressions,
  unsubscribeGroups,
  type MessageSource,
  type MessageStatus,
} from "@/db/schema";
import { DELIVERY_COLUMNS } from "@/lib/records/timeline/delivery-columns";
import type { DeliveryFacts } from "@/lib/domain/messages/delivery-state.shared";

export const CONTACT_MESSAGES_MAX = 50;

export interface ContactDetail {
  contact: {
    id: string;
    email: string;
    name: string | null;
    locale: string | null;
    createdAt: Date;
    updatedAt: Date;
  };
  /** The newest messages addressed to the contact (To only, as the API's `to` filter), newest first. */
  messages: Array<
    DeliveryFacts & {
      id: string;
      status: MessageStatus;
      source: MessageSource;
      sandbox: boolean;
      to: string[];
      subject: string;
      templateId: string | null;
      createdAt: Date;
    }
  >;
  /** Every group of the workspace, with whether this contact left it. */
  groups: Array<{ id: string; key: string; name: string; unsubscribedAt: Date | null }>;
  suppression: { reason: string; detail: string | null; emailMessageId: string | null; createdAt: Date } | null;
}

/** One contact of the workspace with its messages, group memberships and suppression; null when not ours. */
export async function getContactDetail(workspaceId: string, contactId: string): Promise<ContactDetail | null> {
  const db = await getDb();
  const [contact] = await db
    .select({
      id: contacts.id,
      email: contacts.email,
      name: contacts.name,
      locale: contacts.locale,
      createdAt: contacts.createdAt,
      updatedAt: contacts.updatedAt,
    })
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId)));
  if (!contact) return null;
  const [messages, groups, [suppression]] = await Promise.all([
    db
      .select({
        ...DELIVERY_COLUMNS,
        id: emailMessages.id,
        status: emailMessages.status,
        source: emailMessages.source,
        sandbox: emailMessages.sandbox,
        to: emailMessages.to,
        subject: emailMessages.subject,
        templateId: emailMessages.templateId,
        createdAt: emailMessages.createdAt,
      })
      .from(emailMessageRecipients)
      .innerJoin(
        emailMessages,
        and(
          eq(emailMessages.id, emailMessageRecipients.emailMessageId),
          eq(emailMessages.workspaceId, emailMessageRecipients.workspaceId),
        ),
      )
      .where(
        and(eq(emailMessageRecipients.workspaceId, workspaceId), eq(emailMessageRecipients.address, contact.email)),
      )
      .orderBy(desc(emailMessageRecipients.createdAt), desc(emailMessageRecipients.emailMessageId))
      .limit(CONTACT_MESSAGES_MAX),
    db
      .select({
        id: unsubscribeGroups.id,
        key: unsubscribeGroups.key,
        name: unsubscribeGroups.name,
        unsubscribedAt: groupUnsubscribes.createdAt,
      })
      .from(unsubscribeGroups)
      .leftJoin(
        groupUnsubscribes,
        and(
          eq(groupUnsubscribes.workspaceId, workspaceId),
          eq(groupUnsubscribes.groupId, unsubscribeGroups.id),
          eq(groupUnsubscribes.email, contact.email),
        ),
      )
      .where(eq(unsubscribeGroups.workspaceId, workspaceId))
      .orderBy(asc(unsubscribeGroups.name), asc(unsubscribeGroups.id))
      .limit(200),
    db
      .select({
        reason: suppressions.reason,
        detail: suppressions.detail,
        emailMessageId: suppressions.emailMessageId,
        createdAt: suppressions.createdAt,
      })
      .from(suppressions)
      .where(and(eq(suppressions.workspaceId, workspaceId), eq(suppressions.email, contact.email))),
  ]);
  return { contact, messages, groups, suppression: suppression ?? null };
}
