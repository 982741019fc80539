import type { Metadata } from "next";
import { connection } from "next/server";
import type { SearchParams } from "@/components/insights/page-params";
import { WorkflowTable } from "@/components/workflows/workflow-table";
import { LinkButton } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { FormMessage } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { listDashboardWorkflows, RECENT_RUN_DAYS } from "@/lib/flows/workflows/list-dashboard-workflows";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { deleteWorkflowAction, setWorkflowEnabledAction } from "../actions";

export const metadata: Metadata = { title: "Workflows" };

// The workspace's workflows by name: state, size, recent runs; enable/disable and delete in place.
export default async function WorkflowsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await connection();
  const { workspace } = await requireDashboard();
  const [workflows, params] = await Promise.all([listDashboardWorkflows(workspace.id), searchParams]);
  const deleted = typeof params.deleted === "string" ? params.deleted : null;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Workflows"
        description="Emails from templates with waits in between, started by POST /v1/workflow_runs with a key and variables."
        actions={
          <LinkButton href="/workflows/new" variant="primary">
            New workflow
          </LinkButton>
        }
      />
      {deleted ? (
        <FormMessage tone="success">{`Deleted the workflow “${deleted}”. Its runs are kept in Workflow runs.`}</FormMessage>
      ) : null}
      {workflows.length === 0 ? (
        <EmptyState title="No workflows yet" action={<LinkButton href="/workflows/new">New workflow</LinkButton>}>
          Build one from your templates: send an email, wait, send another. Your code then starts it with its key.
        </EmptyState>
      ) : (
        <WorkflowTable
          workflows={workflows}
          recentDays={RECENT_RUN_DAYS}
          setEnabled={setWorkflowEnabledAction}
          remove={deleteWorkflowAction}
        />
      )}
    </div>
  );
}
