import "server-only";
import { and, asc, count, desc, eq, getTableColumns } from "drizzle-orm";
import { getDb } from "@/db/client";
import {
  emailMessageLogs,
  emailMessages,
  templates,
  type MessageDoor,
  type MessageSource,
  type MessageStatus,
} from "@/db/schema";
import { isId } from "@/lib/foundation/ids";

export interface MessageDetail {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  source: MessageSource;
  /** The door it came in by (docs/dashboard.md#how-it-was-sent); null when not recorded. */
  submittedVia: MessageDoor | null;
  status: MessageStatus;
  sandbox: boolean;
  processedAt: Date | null;
  serviceTemplateId: string | null;
  /** The template's current name, read in the same workspace; null when there is none or it was deleted. */
  templateName: string | null;
  batchId: string | null;
  workflowRunId: string | null;
  variables: Record<string, unknown>;
  referenceId: string;
  to: string[];
  cc: string[];
  bcc: string[];
  from: string;
  replyTo: string | null;
  subject: string;
  bodyHtml: string;
  bodyText: string;
  headers: Record<string, string>;
  /** Names and sizes only: the bytes never leave the database for a page view. */
  attachments: { name: string; contentType: string; size: number }[];
  sentAt: Date | null;
  deliveredAt: Date | null;
  firstOpenedAt: Date | null;
  lastOpenedAt: Date | null;
  firstClickedAt: Date | null;
  lastClickedAt: Date | null;
  firstComplainedAt: Date | null;
  lastComplainedAt: Date | null;
  firstBouncedAt: Date | null;
  lastBouncedAt: Date | null;
  erroredAt: Date | null;
  lastSuppressedAt: Date | null;
  lastUnsubscribedAt: Date | null;
  metaId: string | null;
  metadata: Record<string, string | number | boolean>;
  /** `name:value` tags (docs/api.md#tags). */
  tags: string[];
  deliveryUnconfirmedAt: Date | null;
  contentPurgedAt: Date | null;
  scheduledAt: Date | null;
  /** When delivery took it (from then on it can no longer be cancelled or rescheduled). */
  handedOverAt: Date | null;
  resentFromId: string | null;
  /** The locale it rendered in and the one asked for (docs/templates.md#where-the-locale-comes-from). */
  locale: string | null;
  requestedLocale: string | null;
  /** Its own resends, oldest first, at most RESENDS_SHOWN ("Resent as …"). */
  resentAs: string[];
}

export const RESENDS_SHOWN = 20;

export interface MessageTimelineEvent {
  id: string;
  code: string;
  message: string;
  /** Scanner or prefetch traffic: shown, but it moved no timestamp. */
  bot: boolean;
  createdAt: Date;
}

export interface MessageDetailResult {
  message: MessageDetail;
  /** Newest first, at most `eventLimit`. */
  events: MessageTimelineEvent[];
  eventCount: number;
}

export const MESSAGE_DETAIL_EVENT_LIMIT = 200;

/** Tenant-scoped: an unknown id and another workspace's both give null, never a hint. */
export async function getMessageDetail(
  workspaceId: string,
  messageId: string,
  options: { eventLimit?: number } = {},
): Promise<MessageDetailResult | null> {
  if (!isId("message", messageId)) return null;
  const db = await getDb();
  // Tenant and internal columns stay out; the template id takes its public name.
  const { templateId, workspaceId: _workspaceId, groupId: _groupId, ...columns } = getTableColumns(emailMessages);
  const [row] = await db
    .select({ ...columns, serviceTemplateId: templateId, templateName: templates.name })
    .from(emailMessages)
    .leftJoin(templates, and(eq(templates.id, emailMessages.templateId), eq(templates.workspaceId, workspaceId)))
    .where(and(eq(emailMessages.workspaceId, workspaceId), eq(emailMessages.id, messageId)));
  if (!row) return null;

  const timeline = and(eq(emailMessageLogs.workspaceId, workspaceId), eq(emailMessageLogs.emailMessageId, messageId));
  const [events, [{ total }], resends] = await Promise.all([
    db
      .select({
        id: emailMessageLogs.id,
        code: emailMessageLogs.code,
        message: emailMessageLogs.message,
        bot: emailMessageLogs.bot,
        createdAt: emailMessageLogs.createdAt,
      })
      .from(emailMessageLogs)
      .where(timeline)
      .orderBy(desc(emailMessageLogs.createdAt), desc(emailMessageLogs.id))
      .limit(options.eventLimit ?? MESSAGE_DETAIL_EVENT_LIMIT),
    db.select({ total: count() }).from(emailMessageLogs).where(timeline),
    db
      .select({ id: emailMessages.id })
      .from(emailMessages)
      .where(and(eq(emailMessages.workspaceId, workspaceId), eq(emailMessages.resentFromId, messageId)))
      .orderBy(asc(emailMessages.id))
      .limit(RESENDS_SHOWN),
  ]);

  return {
    message: {
      ...row,
      attachments: row.attachments.map(({ name, contentType, size }) => ({ name, contentType, size })),
      resentAs: resends.map((resend) => resend.id),
    },
    events,
    eventCount: Number(total),
  };
}
