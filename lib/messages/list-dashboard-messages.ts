import "server-only";
import type { MessageSource, MessageStatus } from "@/db/schema";
import { AppError, invalidParameter } from "@/lib/errors";
import { listTemplates } from "@/lib/templates/list-templates";
import { listMessages, MESSAGES_PAGE_SIZE } from "./list-messages";

/** One row of the dashboard's Emails table: list columns only, never bodies. */
export interface EmailListRow {
  id: string;
  status: MessageStatus;
  source: MessageSource;
  sandbox: boolean;
  to: string[];
  subject: string;
  templateId: string | null;
  metaId: string | null;
  createdAt: Date;
  /** Content erased (status DELETED) or purged by retention: the subject is not shown as content. */
  erased: boolean;
}

/** The dashboard's filter parameters as they appear in the URL (GET form, so links are shareable). */
export const EMAIL_FILTER_PARAMS = ["status", "source", "mode", "templateId", "batchId", "to", "metaId", "createdFrom", "createdTo"] as const;
export type EmailFilterParam = (typeof EMAIL_FILTER_PARAMS)[number];
const PAGE_PARAMS = ["cursor.after", "cursor.before", "limit"] as const;

export interface EmailListPage {
  rows: EmailListRow[];
  /** Ids to page from: older (`cursor.after`) and newer (`cursor.before`); null at either end. */
  olderCursor: string | null;
  newerCursor: string | null;
  limit: number;
}

export type EmailListResult = { ok: true; page: EmailListPage } | { ok: false; param: string; message: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The Emails page's rows (issue #5). Translates the dashboard's URL parameters into the API's
 * (`listMessages`, the same index-backed keyset query as GET /v1/email_messages) so there is one
 * filter parser and one query; the day range becomes `createdAt.gte`/`createdAt.lt` in UTC. A bad
 * value is returned with the parameter it concerns, for the page to show next to the field.
 */
export async function listDashboardMessages(workspaceId: string, search: URLSearchParams): Promise<EmailListResult> {
  try {
    const { apiParams, sandbox } = toApiParams(search);
    const { items, meta } = await listMessages(workspaceId, apiParams, { sandbox });
    const rows = items.map((row): EmailListRow => {
      const erased = row.status === "DELETED" || row.contentPurgedAt !== null;
      return {
        id: row.id,
        status: row.status,
        source: row.source,
        sandbox: row.sandbox,
        to: row.to,
        subject: row.status === "DELETED" ? "" : row.subject,
        templateId: row.templateId,
        metaId: row.metaId,
        createdAt: row.createdAt,
        erased,
      };
    });
    return { ok: true, page: { rows, olderCursor: meta["cursor.after"], newerCursor: meta["cursor.before"], limit: meta.limit } };
  } catch (error) {
    if (error instanceof AppError && error.code === "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR") {
      return { ok: false, param: dashboardParam(error.param ?? ""), message: error.message };
    }
    throw error;
  }
}

/**
 * How many messages matching the same filters arrived after `newestId` (the top row on screen),
 * for the "N new messages" notice. One keyset page towards newer rows: at most a page is read.
 */
export async function countNewerMessages(workspaceId: string, search: URLSearchParams, newestId: string | null) {
  const params = new URLSearchParams();
  for (const name of EMAIL_FILTER_PARAMS) {
    const value = search.get(name);
    if (value) params.set(name, value);
  }
  params.set("limit", String(MESSAGES_PAGE_SIZE));
  if (newestId) params.set("cursor.before", newestId);
  const result = await listDashboardMessages(workspaceId, params);
  if (!result.ok) return { count: 0, more: false };
  const more = newestId ? result.page.newerCursor !== null : result.page.olderCursor !== null;
  return { count: result.page.rows.length, more };
}

/** The workspace's templates for the filter's select and the table's template column (newest 100). */
export async function listTemplateChoices(workspaceId: string): Promise<{ id: string; name: string }[]> {
  const { items } = await listTemplates(workspaceId, new URLSearchParams({ limit: "100" }));
  return items.map((template) => ({ id: template.id, name: template.name }));
}

function toApiParams(search: URLSearchParams): { apiParams: URLSearchParams; sandbox: boolean | undefined } {
  const apiParams = new URLSearchParams();
  const value = (name: string) => search.get(name)?.trim() || null;
  for (const name of ["status", "source", "templateId", "batchId", "to", "metaId", ...PAGE_PARAMS]) {
    const given = value(name);
    if (given) apiParams.set(name, given);
  }
  const mode = value("mode");
  if (mode && mode !== "live" && mode !== "sandbox") throw invalidParameter("mode", "mode must be live or sandbox.");
  const from = value("createdFrom");
  const to = value("createdTo");
  if (from) apiParams.set("createdAt.gte", dayStart(from, "createdFrom").toISOString());
  if (to) apiParams.set("createdAt.lt", new Date(dayStart(to, "createdTo").getTime() + 86_400_000).toISOString());
  if (from && to && from > to) throw invalidParameter("createdTo", "The end date is before the start date.");
  return { apiParams, sandbox: mode ? mode === "sandbox" : undefined };
}

function dayStart(day: string, param: string): Date {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (!DAY.test(day) || Number.isNaN(date.getTime())) throw invalidParameter(param, `${param} must be a date such as 2026-01-31.`);
  return date;
}

/** The API names the date range createdAt.*; the dashboard form calls it createdFrom/createdTo. */
function dashboardParam(param: string): string {
  if (param === "createdAt.gte") return "createdFrom";
  if (param === "createdAt.lt") return "createdTo";
  return param;
}
