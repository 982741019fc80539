import type { Metadata } from "next";
import { connection } from "next/server";
import { EmailFilters, type EmailFilterValues } from "@/components/messages/email-filters";
import { MessageTable } from "@/components/messages/message-table";
import { NewMessagesNotice } from "@/components/messages/new-messages-notice";
import { SimulatorAddresses } from "@/components/messages/simulator-addresses";
import { EmptyState } from "@/components/ui/empty-state";
import { FormMessage } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { hrefWith, Pager } from "@/components/ui/pager";
import { dashboardTags, EMAIL_FILTER_PARAMS, parseEmailListSearch } from "@/lib/domain/messages/email-list-search";
import { listDashboardMessages, listTemplateChoices } from "@/lib/domain/messages/list-dashboard-messages";
import { listTemplateNames } from "@/lib/domain/templates/list-template-names";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { toSearchParams } from "../search-params";

export const metadata: Metadata = { title: "Emails" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const FORM_FIELDS = new Set<string>([...EMAIL_FILTER_PARAMS, "tag"]);

/** The repeated `tag` filters appended to a link built from the single-valued ones. */
function withTags(href: string, tags: string[]): string {
  if (tags.length === 0) return href;
  const query = new URLSearchParams(tags.map((tag) => ["tag", tag]));
  return `${href}${href.includes("?") ? "&" : "?"}${query.toString()}`;
}

// Every message of the workspace, newest first: filters and cursors live in the URL.
export default async function EmailsPage({ searchParams }: Props) {
  await connection();
  const { workspace } = await requireDashboard();
  const search = toSearchParams(await searchParams);
  const parsed = parseEmailListSearch(search);
  const [result, templates] = await Promise.all([
    parsed.ok ? listDashboardMessages(workspace.id, parsed.query) : parsed,
    listTemplateChoices(workspace.id),
  ]);

  // Names for this page's rows, not the select's newest 100: an older template is still shown by name.
  const templateNames = result.ok
    ? await listTemplateNames(
        workspace.id,
        result.page.rows.map((row) => row.templateId),
      )
    : new Map<string, string>();
  const values = Object.fromEntries(
    [...EMAIL_FILTER_PARAMS, "limit"].map((name) => [name, search.get(name) ?? ""]),
  ) as unknown as EmailFilterValues;
  const tags = dashboardTags(search);
  const filterLink = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ""));
  const filtered = EMAIL_FILTER_PARAMS.some((name) => values[name] !== "") || tags.length > 0;
  const firstPage = !search.get("cursor.after") && !search.get("cursor.before");
  const fieldError = result.ok ? null : FORM_FIELDS.has(result.param) ? result : null;

  return (
    <div>
      <PageHeader
        title="Emails"
        description="Every message of this workspace, newest first. Filters and pages are in the URL: share it."
      />
      <EmailFilters values={values} tags={tags} templates={templates} error={fieldError} />
      {!result.ok ? (
        <FormMessage tone="error">
          <span data-testid="filter-error">{result.message}</span>{" "}
          {fieldError ? null : (
            <a href={withTags(hrefWith("/emails", filterLink), tags)} className="font-semibold underline">
              Back to the first page
            </a>
          )}
        </FormMessage>
      ) : (
        <>
          {firstPage ? (
            <NewMessagesNotice
              query={withTags(`?${new URLSearchParams(filterLink).toString()}`, tags).slice(1)}
              newestId={result.page.rows[0]?.id ?? null}
            />
          ) : null}
          {result.page.rows.length === 0 ? (
            <EmptyState
              title={filtered ? "No emails match these filters" : firstPage ? "No emails yet" : "No more emails"}
            >
              {filtered
                ? "Try a wider date range or clear a filter."
                : "Messages sent through the API, batches and workflows of this workspace appear here, with their delivery timeline."}
            </EmptyState>
          ) : (
            <MessageTable rows={result.page.rows} templateNames={templateNames} />
          )}
          <Pager
            summary={`${result.page.rows.length} on this page`}
            previousHref={
              result.page.newerCursor
                ? withTags(hrefWith("/emails", { ...filterLink, "cursor.before": result.page.newerCursor }), tags)
                : null
            }
            nextHref={
              result.page.olderCursor
                ? withTags(hrefWith("/emails", { ...filterLink, "cursor.after": result.page.olderCursor }), tags)
                : null
            }
          />
        </>
      )}
      <div className="mt-6">
        <SimulatorAddresses />
      </div>
    </div>
  );
}
