import "server-only";
import type { MessageDoor, MessageSource, MessageStatus } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { listTemplates, TEMPLATES_PAGE_SIZE } from "@/lib/domain/templates/list-templates";
import type { DeliveryFacts } from "./delivery-state.shared";
import type { EmailListSearchError } from "./email-list-search";
import { listMessages } from "./list-messages";
import { MESSAGES_PAGE_SIZE, type MessageListQuery } from "./message-list-query";

/** One row of the dashboard's Emails table: list columns only, never bodies; the timeline's columns for its state. */
export interface EmailListRow extends DeliveryFacts {
  id: string;
  status: MessageStatus;
  source: MessageSource;
  /** The door it came in by (docs/dashboard.md#how-it-was-sent); null when not recorded. */
  submittedVia: MessageDoor | null;
  sandbox: boolean;
  to: string[];
  subject: string;
  tags: string[];
  templateId: string | null;
  metaId: string | null;
  createdAt: Date;
  scheduledAt: Date | null;
  /** Content erased (status DELETED) or purged by retention: the subject is not shown as content. */
  erased: boolean;
}

export interface EmailListPage {
  rows: EmailListRow[];
  /** Ids to page from: older (`cursor.after`) and newer (`cursor.before`); null at either end. */
  olderCursor: string | null;
  newerCursor: string | null;
  limit: number;
}

export type EmailListResult = { ok: true; page: EmailListPage } | EmailListSearchError;

/** The same keyset query as GET /v1/email_messages; a cursor naming no message here comes back with its parameter. */
export async function listDashboardMessages(workspaceId: string, query: MessageListQuery): Promise<EmailListResult> {
  try {
    const { items, meta } = await listMessages(workspaceId, query);
    const rows = items.map((row): EmailListRow => {
      const erased = row.status === "DELETED" || row.contentPurgedAt !== null;
      return {
        id: row.id,
        status: row.status,
        source: row.source,
        submittedVia: row.submittedVia,
        sandbox: row.sandbox,
        to: row.to,
        subject: row.status === "DELETED" ? "" : row.subject,
        tags: row.tags,
        templateId: row.templateId,
        metaId: row.metaId,
        createdAt: row.createdAt,
        scheduledAt: row.scheduledAt,
        erased,
        sentAt: row.sentAt,
        deliveredAt: row.deliveredAt,
        firstOpenedAt: row.firstOpenedAt,
        firstClickedAt: row.firstClickedAt,
        firstBouncedAt: row.firstBouncedAt,
        firstComplainedAt: row.firstComplainedAt,
        erroredAt: row.erroredAt,
        lastSuppressedAt: row.lastSuppressedAt,
        lastUnsubscribedAt: row.lastUnsubscribedAt,
        handedOverAt: row.handedOverAt,
      };
    });
    return {
      ok: true,
      page: { rows, olderCursor: meta["cursor.after"], newerCursor: meta["cursor.before"], limit: meta.limit },
    };
  } catch (error) {
    if (error instanceof AppError && error.code === "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR") {
      return { ok: false, param: error.param ?? "", message: error.message };
    }
    throw error;
  }
}

/** For the "N new messages" notice: one keyset page towards newer rows, so at most a page is read. */
export async function countNewerMessages(workspaceId: string, filters: MessageListQuery, newestId: string | null) {
  const cursor = newestId ? { direction: "before" as const, id: newestId } : null;
  const result = await listDashboardMessages(workspaceId, { ...filters, limit: MESSAGES_PAGE_SIZE, cursor });
  if (!result.ok) return { count: 0, more: false };
  const more = newestId ? result.page.newerCursor !== null : result.page.olderCursor !== null;
  return { count: result.page.rows.length, more };
}

/** The workspace's templates for the filter's select and the table's template column (newest 100). */
export async function listTemplateChoices(workspaceId: string): Promise<{ id: string; name: string }[]> {
  const { items } = await listTemplates(workspaceId, { limit: TEMPLATES_PAGE_SIZE, cursor: null });
  return items.map((template) => ({ id: template.id, name: template.name }));
}
