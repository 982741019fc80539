import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { workflowRuns } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { insertTestMessage } from "@/lib/testing/fixtures";
import { getWorkflowRunDetail } from "./get-workflow-run-detail";
import { listWorkflowRuns, parseWorkflowRunListQuery } from "./list-workflow-runs";
import { createWorkflowWorkspace } from "./testing";
import { triggerWorkflowRun } from "./trigger-workflow-run";

async function setUp() {
  const ws = await createWorkflowWorkspace();
  const workflow = await ws.createWorkflow({
    name: "Onboarding",
    key: "signed-up",
    steps: [
      { type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}" },
      { type: "wait", seconds: 60 },
      { type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}" },
    ],
  });
  const trigger = (body: Record<string, unknown>) =>
    triggerWorkflowRun({ workspaceId: ws.workspace.id, sandbox: true, body });
  return { ws, workflow, trigger };
}

describe("listWorkflowRuns", () => {
  it("lists the workspace's runs newest first with the workflow's name and the message count", async () => {
    const { ws, workflow, trigger } = await setUp();
    const other = await setUp();
    const running = await trigger({ workflowId: workflow.id, variables: { user: { email: "a@example.org" } } });
    const skipped = await trigger({ workflowKey: "not-there" });
    await other.trigger({ workflowKey: "not-there" });
    await insertTestMessage(ws.workspace.id, {
      workflowRunId: running.run.id,
      source: "SANDBOX_WORKFLOW",
      sandbox: true,
    });

    const page = await listWorkflowRuns(ws.workspace.id, parseWorkflowRunListQuery(new URLSearchParams()));
    expect(page.items.map((run) => run.id)).toEqual([skipped.run.id, running.run.id]);
    expect(page.items[0]).toMatchObject({
      status: "SKIPPED",
      workflowKey: "not-there",
      workflowName: null,
      messageCount: 0,
    });
    expect(page.items[1]).toMatchObject({ status: "RUNNING", workflowName: "Onboarding", messageCount: 1 });
    expect(
      (await listWorkflowRuns(other.ws.workspace.id, parseWorkflowRunListQuery(new URLSearchParams()))).items,
    ).toHaveLength(1);
  });
});

describe("getWorkflowRunDetail", () => {
  it("shows a run's workflow, step states, reason and messages", async () => {
    const { ws, workflow, trigger } = await setUp();
    const { run } = await trigger({ workflowId: workflow.id, variables: { user: { email: "a@example.org" } } });
    const message = await insertTestMessage(ws.workspace.id, { workflowRunId: run.id, subject: "Hi Ada" });
    await (
      await getDb()
    )
      .update(workflowRuns)
      .set({ status: "FAILED", nextStep: 2, reason: "Step 2 broke." })
      .where(eq(workflowRuns.id, run.id));

    const detail = await getWorkflowRunDetail(ws.workspace.id, run.id);
    expect(detail.workflowName).toBe("Onboarding");
    expect(detail.run).toMatchObject({
      id: run.id,
      status: "FAILED",
      reason: "Step 2 broke.",
      variables: { user: { email: "a@example.org" } },
    });
    expect(detail.steps.map((step) => [step.kind, step.state])).toEqual([
      ["sendEmail", "done"],
      ["wait", "failed"],
      ["sendEmail", "not run"],
    ]);
    expect(detail.stepsDone).toBe(2);
    expect(detail.messages.map((row) => [row.id, row.subject])).toEqual([[message, "Hi Ada"]]);
  });

  it("gives the same NOT_FOUND for an unknown id and another workspace's run", async () => {
    const { trigger } = await setUp();
    const other = await setUp();
    const { run } = await trigger({ workflowKey: "missing" });
    for (const id of [run.id, "wfr_0000000000000000"]) {
      const error = await getWorkflowRunDetail(other.ws.workspace.id, id).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("NOT_FOUND");
    }
    const skipped = await getWorkflowRunDetail((await setUp()).ws.workspace.id, run.id).catch(
      (reason: unknown) => reason,
    );
    expect((skipped as AppError).code).toBe("NOT_FOUND");
  });
});
