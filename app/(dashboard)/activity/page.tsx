import type { Metadata } from "next";
import { connection } from "next/server";
import { ActivityFilters } from "@/components/activity/activity-filters";
import { ActivityList } from "@/components/activity/activity-list";
import { InvalidLink, isInvalidParameter, toUrlParams, type SearchParams } from "@/components/insights/page-params";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hrefWith, Pager } from "@/components/ui/pager";
import { listActivity, parseActivityListQuery } from "@/lib/records/activity/list-activity";
import { requireDashboard } from "@/app/_lib/dashboard-context";

export const metadata: Metadata = { title: "Activity" };

// The workspace's API request log, newest first; filters and cursors live in the URL.
export default async function ActivityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  const { workspace } = await requireDashboard();
  const header = (
    <PageHeader
      title="Activity"
      description="Every authenticated API request of this workspace, newest first. Open a row for its bodies."
    />
  );
  let page;
  try {
    page = await listActivity(workspace.id, parseActivityListQuery(toUrlParams(await searchParams)));
  } catch (error) {
    if (!isInvalidParameter(error)) throw error;
    return (
      <div>
        {header}
        <InvalidLink error={error} firstPageHref="/activity" />
      </div>
    );
  }
  const { items, meta, filters } = page;
  const keep = { sandbox: filters.sandboxOnly ? 1 : null, errors: filters.errorsOnly ? 1 : null };
  const filtered = filters.sandboxOnly || filters.errorsOnly;
  return (
    <div>
      {header}
      <ActivityFilters sandboxOnly={filters.sandboxOnly} errorsOnly={filters.errorsOnly} />
      {items.length === 0 && !meta["cursor.before"] ? (
        <EmptyState title={filtered ? "No requests match these filters" : "No API requests yet"}>
          {filtered
            ? "Clear a filter to see more."
            : "Requests made with this workspace's API keys show up here, with their bodies."}
        </EmptyState>
      ) : (
        <>
          <ActivityList rows={items} />
          <Pager
            previousHref={
              meta["cursor.before"] ? hrefWith("/activity", { ...keep, "cursor.before": meta["cursor.before"] }) : null
            }
            nextHref={
              meta["cursor.after"] ? hrefWith("/activity", { ...keep, "cursor.after": meta["cursor.after"] }) : null
            }
            summary={`${meta.count} on this page`}
          />
        </>
      )}
    </div>
  );
}
