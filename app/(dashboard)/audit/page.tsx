import type { Metadata } from "next";
import { connection } from "next/server";
import { AuditFilters } from "@/components/audit/audit-filters";
import { AuditList } from "@/components/audit/audit-list";
import { InvalidLink, isInvalidParameter, toUrlParams, type SearchParams } from "@/components/insights/page-params";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hrefWith, Pager } from "@/components/ui/pager";
import { listAuditEvents, parseAuditListQuery } from "@/lib/records/audit/list-audit-events";
import { auditActorNames } from "@/lib/records/audit/actor-names";
import { requireDashboard } from "@/app/_lib/dashboard-context";

export const metadata: Metadata = { title: "Audit log" };

const FILTERS = ["actorType", "actorId", "action", "targetType", "targetId", "createdAt.gte", "createdAt.lt"] as const;

// Who changed what in this workspace (docs/audit.md), newest first; owners and admins only. Filters and cursors live in the URL.
export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  const { workspace } = await requireDashboard("ADMIN");
  const header = (
    <PageHeader
      title="Audit log"
      description="Every change to this workspace (keys, domains, templates, suppressions, settings, members), who made it and from where, newest first."
    />
  );
  // The filter form submits its empty fields too: an empty filter is no filter (the API would refuse an empty date).
  const params = new URLSearchParams([...toUrlParams(await searchParams)].filter(([, value]) => value !== ""));
  let page;
  try {
    page = await listAuditEvents(workspace.id, parseAuditListQuery(params));
  } catch (error) {
    if (!isInvalidParameter(error)) throw error;
    return (
      <div>
        {header}
        <InvalidLink error={error} firstPageHref="/audit" />
      </div>
    );
  }
  const { items, meta } = page;
  const actorNames = await auditActorNames(workspace.id, items);
  const keep = Object.fromEntries(FILTERS.map((name) => [name, params.get(name)]));
  const filtered = FILTERS.some((name) => params.get(name));
  return (
    <div>
      {header}
      <AuditFilters values={keep} />
      {items.length === 0 && !meta["cursor.before"] ? (
        <EmptyState title={filtered ? "No changes match these filters" : "No changes recorded yet"}>
          {filtered
            ? "Clear a filter to see more."
            : "Changes made in the dashboard, with the CLI or through the API show up here."}
        </EmptyState>
      ) : (
        <>
          <AuditList rows={items} actorNames={actorNames} />
          <Pager
            previousHref={
              meta["cursor.before"] ? hrefWith("/audit", { ...keep, "cursor.before": meta["cursor.before"] }) : null
            }
            nextHref={
              meta["cursor.after"] ? hrefWith("/audit", { ...keep, "cursor.after": meta["cursor.after"] }) : null
            }
            summary={`${meta.count} on this page`}
          />
        </>
      )}
    </div>
  );
}
