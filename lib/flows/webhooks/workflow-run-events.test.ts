import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { webhookEvents } from "@/db/schema";
import { createWorkflowWorkspace } from "@/lib/flows/workflows/testing";
import { runWorkflowStep } from "@/lib/flows/workflows/run-workflow-step";
import { triggerWorkflowRun } from "@/lib/flows/workflows/trigger-workflow-run";
import { listEventFeed, parseFeedQuery } from "./list-event-feed";

async function runToEnd(ws: Awaited<ReturnType<typeof createWorkflowWorkspace>>, steps: unknown[], sandbox = false) {
  const workflow = await ws.createWorkflow({ steps });
  const { run } = await triggerWorkflowRun({
    workspaceId: ws.workspace.id,
    sandbox,
    body: { workflowId: workflow.id, variables: {} },
  });
  for (let index = 0; index < steps.length; index++)
    await runWorkflowStep({ workspaceId: ws.workspace.id, runId: run.id, step: index });
  return run.id;
}

describe("workflow_run events", () => {
  it("a live run's end is emitted as workflow_run.completed or .failed with the run as GET returns it; sandbox runs emit none", async () => {
    const ws = await createWorkflowWorkspace();
    const completed = await runToEnd(ws, [{ type: "sendEmail", templateId: ws.template.id, to: "ann@example.org" }]);
    const failed = await runToEnd(ws, [{ type: "sendEmail", templateId: ws.template.id, to: "not an address" }]);
    await runToEnd(ws, [{ type: "sendEmail", templateId: ws.template.id, to: "ann@example.org" }], true);
    const rows = await (
      await getDb()
    )
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.workspaceId, ws.workspace.id));
    expect(
      rows.filter((row) => row.type.startsWith("workflow_run.")).map((row) => [row.type, row.workflowRunId]),
    ).toEqual([
      ["workflow_run.completed", completed],
      ["workflow_run.failed", failed],
    ]);
    // On a shared PostgreSQL server events appear once older transactions (other tests) end: read until both are there.
    const events: unknown[] = [];
    let after = "";
    for (let round = 0; round < 10 && events.length < 2; round++) {
      const page = await listEventFeed(
        ws.workspace.id,
        parseFeedQuery(new URLSearchParams(`types=workflow_run.completed,workflow_run.failed&wait=5&after=${after}`)),
      );
      events.push(...page.events);
      after = page.nextCursor;
    }
    expect(events).toMatchObject([
      {
        type: "workflow_run.completed",
        data: { workflowRun: { id: completed, type: "WorkflowRun", status: "COMPLETED" } },
      },
      { type: "workflow_run.failed", data: { workflowRun: { id: failed, status: "FAILED" } } },
    ]);
  });
});
