import type { Metadata } from "next";
import { connection } from "next/server";
import { InvalidLink, isInvalidParameter, toUrlParams, type SearchParams } from "@/components/insights/page-params";
import { WorkflowRunTable } from "@/components/workflows/workflow-run-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hrefWith, Pager } from "@/components/ui/pager";
import { listWorkflowRuns } from "@/lib/workflows/list-workflow-runs";
import { requireDashboard } from "@/app/_lib/dashboard-context";

export const metadata: Metadata = { title: "Workflow runs" };

// The workspace's workflow runs, newest first, in keyset pages.
export default async function WorkflowRunsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  const { workspace } = await requireDashboard();
  const header = <PageHeader title="Workflow runs" description="Runs triggered with POST /v1/workflow_runs, newest first." />;
  let page;
  try {
    page = await listWorkflowRuns(workspace.id, toUrlParams(await searchParams));
  } catch (error) {
    if (!isInvalidParameter(error)) throw error;
    return (
      <div>
        {header}
        <InvalidLink error={error} firstPageHref="/workflow-runs" />
      </div>
    );
  }
  const { items, meta } = page;
  return (
    <div>
      {header}
      {items.length === 0 && !meta["cursor.before"] ? (
        <EmptyState title="No workflow runs yet">
          Trigger a workflow with <code className="font-mono">POST /v1/workflow_runs</code> and its <code className="font-mono">workflowKey</code> or{" "}
          <code className="font-mono">workflowId</code>; each run shows up here with its steps and messages.
        </EmptyState>
      ) : (
        <>
          <WorkflowRunTable runs={items} />
          <Pager
            previousHref={meta["cursor.before"] ? hrefWith("/workflow-runs", { "cursor.before": meta["cursor.before"] }) : null}
            nextHref={meta["cursor.after"] ? hrefWith("/workflow-runs", { "cursor.after": meta["cursor.after"] }) : null}
            summary={`${meta.count} on this page`}
          />
        </>
      )}
    </div>
  );
}
