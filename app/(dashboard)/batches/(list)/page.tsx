import type { Metadata } from "next";
import { connection } from "next/server";
import { BatchTable } from "@/components/batches/batch-table";
import { InvalidLink, isInvalidParameter, toUrlParams, type SearchParams } from "@/components/insights/page-params";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hrefWith, Pager } from "@/components/ui/pager";
import { listBatches } from "@/lib/batches/list-batches";
import { requireDashboard } from "@/app/_lib/dashboard-context";

export const metadata: Metadata = { title: "Batches" };

// The workspace's batch sends, newest first, in keyset pages.
export default async function BatchesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  const { workspace } = await requireDashboard();
  const header = <PageHeader title="Batches" description="Batch sends (POST /v1/batches), newest first, with their messages by status." />;
  let page;
  try {
    page = await listBatches(workspace.id, toUrlParams(await searchParams));
  } catch (error) {
    if (!isInvalidParameter(error)) throw error;
    return (
      <div>
        {header}
        <InvalidLink error={error} firstPageHref="/batches" />
      </div>
    );
  }
  const { items, meta } = page;
  return (
    <div>
      {header}
      {items.length === 0 && !meta["cursor.before"] ? (
        <EmptyState title="No batches yet">
          Send up to 1,000 messages in one request with <code className="font-mono">POST /v1/batches</code> (or the sandbox twin); each batch shows up here.
        </EmptyState>
      ) : (
        <>
          <BatchTable batches={items} />
          <Pager
            previousHref={meta["cursor.before"] ? hrefWith("/batches", { "cursor.before": meta["cursor.before"] }) : null}
            nextHref={meta["cursor.after"] ? hrefWith("/batches", { "cursor.after": meta["cursor.after"] }) : null}
            summary={`${meta.count} on this page`}
          />
        </>
      )}
    </div>
  );
}
