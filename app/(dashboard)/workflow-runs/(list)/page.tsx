import type { Metadata } from "next";
import { connection } from "next/server";
import { KeysetListPage } from "@/components/insights/keyset-list-page";
import type { SearchParams } from "@/components/insights/page-params";
import { WorkflowRunTable } from "@/components/workflows/workflow-run-table";
import { PageHeader } from "@/components/ui/page-header";
import { listWorkflowRuns, parseWorkflowRunListQuery } from "@/lib/flows/workflows/list-workflow-runs";
import { requireDashboard } from "@/app/_lib/dashboard-context";

export const metadata: Metadata = { title: "Workflow runs" };

// The workspace's workflow runs, newest first, in keyset pages.
export default async function WorkflowRunsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  const { workspace } = await requireDashboard();
  return (
    <KeysetListPage
      basePath="/workflow-runs"
      header={
        <PageHeader title="Workflow runs" description="Runs triggered with POST /v1/workflow_runs, newest first." />
      }
      searchParams={searchParams}
      load={(params) => listWorkflowRuns(workspace.id, parseWorkflowRunListQuery(params))}
      empty={{
        title: "No workflow runs yet",
        body: (
          <>
            Trigger a workflow with <code className="font-mono">POST /v1/workflow_runs</code> and its{" "}
            <code className="font-mono">workflowKey</code> or <code className="font-mono">workflowId</code>; each run
            shows up here with its steps and messages.
          </>
        ),
      }}
      table={(items) => <WorkflowRunTable runs={items} />}
    />
  );
}
