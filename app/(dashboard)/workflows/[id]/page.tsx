import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { isNotFound, type SearchParams } from "@/components/insights/page-params";
import { WorkflowBuilder } from "@/components/workflows/builder/workflow-builder";
import { WorkflowRowActions } from "@/components/workflows/workflow-row-actions";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Timestamp } from "@/components/ui/timestamp";
import { draftFromWorkflow } from "@/lib/flows/workflows/builder.shared";
import { getWorkflowOrThrow } from "@/lib/flows/workflows/get-workflow-or-throw";
import { listBuilderChoices } from "@/lib/flows/workflows/list-builder-choices";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { deleteWorkflowAction, saveWorkflowAction, setWorkflowEnabledAction, testRunWorkflowAction } from "../actions";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> };

export const metadata: Metadata = { title: "Workflow" };

// The builder for one workflow of the current workspace; another workspace's id is a 404.
export default async function WorkflowPage({ params, searchParams }: Props) {
  await connection();
  const [{ id }, query] = await Promise.all([params, searchParams]);
  const { workspace } = await requireDashboard();
  const workflow = await getWorkflowOrThrow(workspace.id, id).catch((error: unknown) => {
    if (isNotFound(error)) notFound();
    throw error;
  });
  const templateIds = workflow.steps.flatMap((step) => (step.type === "sendEmail" ? [step.templateId] : []));
  const choices = await listBuilderChoices(workspace.id, templateIds);
  return (
    <div className="space-y-2">
      <Link href="/workflows" className="text-sm text-indigo-600 hover:underline">
        ← All workflows
      </Link>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            {workflow.name}
            {workflow.enabled ? <Badge tone="success">enabled</Badge> : <Badge>disabled</Badge>}
          </span>
        }
        description={
          <>
            <span className="font-mono text-xs">{workflow.id}</span> · updated <Timestamp value={workflow.updatedAt} />{" "}
            ·{" "}
            <Link href="/workflow-runs" className="text-indigo-600 hover:underline">
              Workflow runs
            </Link>
          </>
        }
      />
      <WorkflowBuilder
        workflowId={workflow.id}
        initial={draftFromWorkflow(workflow)}
        templates={choices.templates}
        groups={choices.groups}
        save={saveWorkflowAction}
        testRun={testRunWorkflowAction}
        notice={
          query.created
            ? "Created. Trigger it with its key, or try it with a sandbox test run in the Test run panel."
            : undefined
        }
      />
      <div className="pt-4">
        <Card title="Delete" id="delete-workflow" description="Runs are kept; runs already started finish their steps.">
          <WorkflowRowActions
            workflow={workflow}
            setEnabled={setWorkflowEnabledAction}
            remove={deleteWorkflowAction}
            showToggle={false}
          />
        </Card>
      </div>
    </div>
  );
}
