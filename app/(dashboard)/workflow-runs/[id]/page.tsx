import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { isNotFound } from "@/components/insights/page-params";
import { MessageTable } from "@/components/messages/message-table";
import { RunStatusBadge } from "@/components/workflows/run-status-badge";
import { RunSteps } from "@/components/workflows/run-steps";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { DescriptionList } from "@/components/ui/description-list";
import { Timestamp } from "@/components/ui/timestamp";
import { getWorkflowRunDetail } from "@/lib/flows/workflows/get-workflow-run-detail";
import { listTemplateNames } from "@/lib/domain/templates/list-template-names";
import { requireDashboard } from "@/app/_lib/dashboard-context";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Workflow run ${(await params).id}` };
}

const none = <span className="text-slate-400">—</span>;
const mono = (value: string | null) => (value ? <span className="font-mono text-xs break-all">{value}</span> : none);

/** The run's workflow by name, linked; one deleted since shows its id. */
function workflowLink(workflowId: string | null, name: string | null) {
  if (!workflowId) return none;
  if (!name) return mono(workflowId);
  return (
    <Link href={`/workflows/${encodeURIComponent(workflowId)}`} className="text-indigo-700 hover:underline">
      {name}
    </Link>
  );
}

// One workflow run of the current workspace: status, variables, steps and the messages it sent.
export default async function WorkflowRunPage({ params }: Props) {
  await connection();
  const { id } = await params;
  const { workspace } = await requireDashboard();
  const detail = await getWorkflowRunDetail(workspace.id, id).catch((error: unknown) => {
    if (isNotFound(error)) notFound();
    throw error;
  });
  const { run, workflowName, steps, stepsDone, messages } = detail;
  const templateNames = await listTemplateNames(workspace.id, [
    ...messages.map((message) => message.templateId),
    ...steps.map((step) => step.send?.templateId ?? null),
  ]);

  return (
    <div className="space-y-6">
      <div>
        <Link href="/workflow-runs" className="text-sm text-indigo-600 hover:underline">
          ← All workflow runs
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <RunStatusBadge status={run.status} />
          {run.sandbox ? <Badge tone="warning">sandbox</Badge> : <Badge tone="info">live</Badge>}
        </div>
        <h1 className="mt-2 text-xl font-semibold tracking-tight break-words">
          {workflowName ?? run.workflowKey ?? "Workflow run"}
        </h1>
        <p className="mt-1 font-mono text-xs break-all text-slate-500">{run.id}</p>
      </div>
      {run.reason ? (
        <div
          data-testid="run-reason"
          className={`rounded-lg border px-4 py-3 text-sm ${run.status === "FAILED" ? "border-red-200 bg-red-50 text-red-800" : "border-slate-200 bg-slate-50 text-slate-800"}`}
        >
          <span className="font-medium">{run.status === "FAILED" ? "Why it failed: " : "Why it was skipped: "}</span>
          {run.reason}
        </div>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Run" id="run">
          <DescriptionList
            terms="words"
            items={[
              { term: "Status", value: <RunStatusBadge status={run.status} /> },
              { term: "Workflow", value: workflowLink(run.workflowId, workflowName) },
              { term: "Workflow key", value: mono(run.workflowKey) },
              { term: "Meta id", value: mono(run.metaId) },
              { term: "Steps done", value: <span data-testid="steps-done">{`${stepsDone} of ${steps.length}`}</span> },
              { term: "Started", value: <Timestamp value={run.createdAt} milliseconds /> },
              { term: "Finished", value: <Timestamp value={run.completedAt} milliseconds /> },
            ]}
          />
        </Card>
        <Card title="Variables" id="variables">
          <CodeBlock label="Variables">{JSON.stringify(run.variables, null, 2)}</CodeBlock>
        </Card>
      </div>
      <Card title="Steps" id="steps" description="Copied from the workflow when the run started.">
        {steps.length > 0 ? (
          <RunSteps steps={steps} templateNames={templateNames} />
        ) : (
          <p className="text-sm text-slate-600">This run has no steps: it never started.</p>
        )}
      </Card>
      <Card title="Messages" id="messages" description="Sent by this run, oldest first.">
        {messages.length > 0 ? (
          <MessageTable rows={messages} templateNames={templateNames} label="Messages of the run, oldest first" />
        ) : (
          <p className="text-sm text-slate-600">This run has sent no messages.</p>
        )}
      </Card>
    </div>
  );
}
