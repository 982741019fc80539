/**
 * bench:dashboard's cases: each dashboard page's data calls, made in-process exactly as its page.tsx
 * makes them, and the URL of the same view for the signed-in HTTP pass.
 */
import { listActivity, parseActivityListQuery } from "@/lib/records/activity/list-activity";
import { listBatches, parseBatchListQuery } from "@/lib/domain/batches/list-batches";
import { searchContacts } from "@/lib/domain/contacts/search-contacts";
import { getOverview } from "@/lib/domain/insights/get-overview";
import { listRecentProblems } from "@/lib/domain/insights/list-recent-problems";
import { parseEmailListSearch } from "@/lib/domain/messages/email-list-search";
import { listDashboardMessages, listTemplateChoices } from "@/lib/domain/messages/list-dashboard-messages";
import { listRecentMessages } from "@/lib/domain/messages/list-recent-messages";
import { listTemplateNames } from "@/lib/domain/templates/list-template-names";
import { listWorkflowRuns, parseWorkflowRunListQuery } from "@/lib/flows/workflows/list-workflow-runs";

export interface PageCase {
  label: string;
  /** Path and query of the same view, for the HTTP pass. */
  url: string;
  data: () => Promise<void>;
}

export interface SeededView {
  workspaceId: string;
  templateId: string;
  deepCursor: string;
  count: number;
  /** A UTC day inside the seed (YYYY-MM-DD). */
  day: string;
}

function expectRows(what: string, rows: number) {
  if (rows === 0) throw new Error(`${what}: no rows`);
}

/** The Overview (app/(dashboard)/(overview)/page.tsx): counts, then problems and the latest, then names. */
function overview(workspaceId: string): PageCase {
  return {
    label: "Overview",
    url: "/",
    data: async () => {
      const counts = await getOverview(workspaceId);
      const [, latest] = await Promise.all([
        listRecentProblems(workspaceId, {
          since: counts.since,
          bounces: counts.totals.live.bounced + counts.totals.sandbox.bounced > 0,
        }),
        listRecentMessages(workspaceId, { limit: 8 }),
      ]);
      await listTemplateNames(
        workspaceId,
        latest.map((message) => message.templateId),
      );
      expectRows("Overview", counts.messages);
    },
  };
}

/** The Emails page: the rows and the template choices, in parallel. */
function emails(workspaceId: string, label: string, query: Record<string, string>): PageCase {
  return {
    label: `Emails, ${label}`,
    url: `/emails?${new URLSearchParams(query)}`,
    data: async () => {
      const parsed = parseEmailListSearch(new URLSearchParams(query));
      const [result] = await Promise.all([
        parsed.ok ? listDashboardMessages(workspaceId, parsed.query) : parsed,
        listTemplateChoices(workspaceId),
      ]);
      if (!result.ok) throw new Error(`${result.param}: ${result.message}`);
      expectRows(label, result.page.rows.length);
    },
  };
}

function listPage(
  label: string,
  url: string,
  load: (params: URLSearchParams) => Promise<{ items: unknown[] }>,
): PageCase {
  return {
    label,
    url,
    data: async () => expectRows(label, (await load(new URL(url, "http://x").searchParams)).items.length),
  };
}

export function dashboardCases(seeded: SeededView): PageCase[] {
  const { workspaceId, count, day } = seeded;
  const emailCases: [string, Record<string, string>][] = [
    ["first page (50 rows)", {}],
    [`deep cursor (~${Math.floor(count * 0.9).toLocaleString("en")} rows in)`, { "cursor.after": seeded.deepCursor }],
    ["status=FAILED (1%)", { status: "FAILED" }],
    ["status=FAILED, deep cursor", { status: "FAILED", "cursor.after": seeded.deepCursor }],
    ["source=BATCH (~9%)", { source: "BATCH" }],
    ["mode=sandbox (2%)", { mode: "sandbox" }],
    ["templateId (~7%)", { templateId: seeded.templateId }],
    ["recipient (0.1%)", { to: "user7@example.org" }],
    ["recipient, deep cursor", { to: "user7@example.org", "cursor.after": seeded.deepCursor }],
    ["metaId (4 rows)", { metaId: `order-${Math.floor(count / 8)}` }],
    ["one day (createdFrom = createdTo)", { createdFrom: day, createdTo: day }],
    ["status=DELETED (0.1%) + one day", { status: "DELETED", createdFrom: day, createdTo: day }],
  ];
  return [
    overview(workspaceId),
    ...emailCases.map(([label, query]) => emails(workspaceId, label, query)),
    listPage("Contacts, first page", "/contacts", (params) =>
      searchContacts(workspaceId, { after: params.get("after") ?? undefined }),
    ),
    listPage("Contacts, search 'user5'", "/contacts?q=user5", (params) =>
      searchContacts(workspaceId, { query: params.get("q") ?? "" }),
    ),
    listPage("Activity, first page", "/activity", (params) =>
      listActivity(workspaceId, parseActivityListQuery(params)),
    ),
    listPage("Activity, errors only (2%)", "/activity?errors=1", (params) =>
      listActivity(workspaceId, parseActivityListQuery(params)),
    ),
    listPage("Activity, sandbox only (2%)", "/activity?sandbox=1", (params) =>
      listActivity(workspaceId, parseActivityListQuery(params)),
    ),
    listPage("Batches, first page", "/batches", (params) => listBatches(workspaceId, parseBatchListQuery(params))),
    listPage("Workflow runs, first page", "/workflow-runs", (params) =>
      listWorkflowRuns(workspaceId, parseWorkflowRunListQuery(params)),
    ),
  ];
}
