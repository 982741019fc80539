import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, workflowRuns, workflows } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";
import { DELIVERY_COLUMNS } from "@/lib/records/timeline/delivery-columns";
import { stepStates, stepsDone } from "./step-states.shared";

/** A run with its workflow's name, each step's state and its messages; tenant-scoped (foreign id: NOT_FOUND). */
export async function getWorkflowRunDetail(workspaceId: string, runId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ run: workflowRuns, workflowName: workflows.name })
    .from(workflowRuns)
    .leftJoin(workflows, and(eq(workflows.id, workflowRuns.workflowId), eq(workflows.workspaceId, workspaceId)))
    .where(and(eq(workflowRuns.workspaceId, workspaceId), eq(workflowRuns.id, runId)));
  if (!row) throw notFound(`Workflow run ${runId}`, "id");
  const messages = await db
    .select({
      ...DELIVERY_COLUMNS,
      id: emailMessages.id,
      status: emailMessages.status,
      source: emailMessages.source,
      sandbox: emailMessages.sandbox,
      to: emailMessages.to,
      subject: emailMessages.subject,
      templateId: emailMessages.templateId,
      createdAt: emailMessages.createdAt,
    })
    .from(emailMessages)
    .where(and(eq(emailMessages.workspaceId, workspaceId), eq(emailMessages.workflowRunId, runId)))
    .orderBy(asc(emailMessages.createdAt), asc(emailMessages.id));
  const { run } = row;
  return { run, workflowName: row.workflowName, steps: stepStates(run), stepsDone: stepsDone(run), messages };
}

export type WorkflowRunDetail = Awaited<ReturnType<typeof getWorkflowRunDetail>>;
