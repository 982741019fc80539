import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { emailMessages, workflowRuns } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

export type WorkflowRunRow = typeof workflowRuns.$inferSelect;
export type WorkflowRunView = WorkflowRunRow & { emailMessageIds: string[] };

/** A run with its messages' ids in creation order; tenant-scoped (foreign id: 404). */
export async function getWorkflowRunOrThrow(workspaceId: string, runId: string): Promise<WorkflowRunView> {
  return getWorkflowRunOrThrowIn(await getDb(), workspaceId, runId);
}

/** The same lookup on the caller's database or transaction. */
export async function getWorkflowRunOrThrowIn(
  db: Executor,
  workspaceId: string,
  runId: string,
): Promise<WorkflowRunView> {
  const [run] = await db
    .select()
    .from(workflowRuns)
    .where(and(eq(workflowRuns.workspaceId, workspaceId), eq(workflowRuns.id, runId)));
  if (!run) throw notFound(`Workflow run ${runId}`, "id");
  const messages = await db
    .select({ id: emailMessages.id })
    .from(emailMessages)
    .where(and(eq(emailMessages.workspaceId, workspaceId), eq(emailMessages.workflowRunId, runId)))
    .orderBy(asc(emailMessages.createdAt), asc(emailMessages.id));
  return { ...run, emailMessageIds: messages.map((message) => message.id) };
}
