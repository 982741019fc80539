import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, workflowRuns, workflows } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { createWorkflow } from "./create-workflow";
import { deleteWorkflow } from "./delete-workflow";
import { getWorkflowOrThrow } from "./get-workflow-or-throw";
import { getWorkflowRunOrThrow } from "./get-workflow-run-or-throw";
import { runWorkflowStep } from "./run-workflow-step";
import { setWorkflowEnabled } from "./set-workflow-enabled";
import { testRunWorkflow } from "./test-run-workflow";
import { createWorkflowWorkspace } from "./testing";
import { triggerWorkflowRun } from "./trigger-workflow-run";

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

async function setUp() {
  const ws = await createWorkflowWorkspace();
  const send = { type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}" };
  const workflow = await ws.createWorkflow({
    name: "Onboarding",
    key: "signed-up",
    steps: [send, { type: "wait", seconds: 3600 }, send],
  });
  const trigger = (body: Record<string, unknown>, sandbox = false) =>
    triggerWorkflowRun({ workspaceId: ws.workspace.id, sandbox, body });
  const runCount = async () =>
    (
      await (
        await getDb()
      )
        .select({ id: workflowRuns.id })
        .from(workflowRuns)
        .where(eq(workflowRuns.workspaceId, ws.workspace.id))
    ).length;
  return { ws, send, workflow, trigger, runCount };
}

describe("setWorkflowEnabled", () => {
  it("a disabled workflow's key (or id) triggers nothing: a SKIPPED run with the reason; enabled again, it runs", async () => {
    const { ws, workflow, trigger } = await setUp();
    const off = await setWorkflowEnabled({ workspaceId: ws.workspace.id, workflowId: workflow.id, enabled: false });
    expect(off).toMatchObject({ id: workflow.id, enabled: false });
    const byKey = await trigger({ workflowKey: "signed-up", variables: { user: { email: "a@example.org" } } });
    expect(byKey.run).toMatchObject({
      status: "SKIPPED",
      workflowId: workflow.id,
      steps: [],
      reason: `The workflow "Onboarding" (${workflow.id}) is disabled; nothing was run.`,
    });
    expect((await trigger({ workflowId: workflow.id })).run.status).toBe("SKIPPED");
    await setWorkflowEnabled({ workspaceId: ws.workspace.id, workflowId: workflow.id, enabled: true });
    expect((await trigger({ workflowKey: "signed-up" })).run.status).toBe("RUNNING");
  });

  it("refuses a non-boolean naming `enabled`, and another workspace's workflow is NOT_FOUND; nothing changes", async () => {
    const { ws, workflow } = await setUp();
    const other = await createWorkflowWorkspace();
    expect(
      await rejection(setWorkflowEnabled({ workspaceId: ws.workspace.id, workflowId: workflow.id, enabled: "false" })),
    ).toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      param: "enabled",
    });
    expect(
      await rejection(setWorkflowEnabled({ workspaceId: other.workspace.id, workflowId: workflow.id, enabled: false })),
    ).toMatchObject({
      code: "NOT_FOUND",
      param: "id",
    });
    expect((await getWorkflowOrThrow(ws.workspace.id, workflow.id)).enabled).toBe(true);
  });
});

describe("deleteWorkflow", () => {
  it("keeps the runs (workflowId set null), lets a run in flight finish its copied steps, and frees the key", async () => {
    const { ws, send, workflow, trigger } = await setUp();
    const { run } = await trigger({ workflowKey: "signed-up", variables: { user: { email: "a@example.org" } } });
    const step = (index: number) => runWorkflowStep({ workspaceId: ws.workspace.id, runId: run.id, step: index });
    await step(0);
    const deleted = await deleteWorkflow({ workspaceId: ws.workspace.id, workflowId: workflow.id });
    expect(deleted.id).toBe(workflow.id);
    expect(await rejection(getWorkflowOrThrow(ws.workspace.id, workflow.id))).toMatchObject({ code: "NOT_FOUND" });
    const kept = await getWorkflowRunOrThrow(ws.workspace.id, run.id);
    expect(kept).toMatchObject({ workflowId: null, workflowKey: "signed-up", status: "RUNNING", nextStep: 1 });
    await step(1);
    await step(2);
    expect(await getWorkflowRunOrThrow(ws.workspace.id, run.id)).toMatchObject({ status: "COMPLETED" });
    expect(
      await (await getDb()).select().from(emailMessages).where(eq(emailMessages.workflowRunId, run.id)),
    ).toHaveLength(2);
    // The key now matches nothing (SKIPPED), and a new workflow may take it.
    expect((await trigger({ workflowKey: "signed-up" })).run.reason).toMatch(/No workflow has the key "signed-up"/);
    await expect(ws.createWorkflow({ key: "signed-up", steps: [send] })).resolves.toMatchObject({ key: "signed-up" });
  });

  it("another workspace's workflow, or an unknown id, is NOT_FOUND and is not deleted", async () => {
    const { ws, workflow } = await setUp();
    const other = await createWorkflowWorkspace();
    expect(await rejection(deleteWorkflow({ workspaceId: other.workspace.id, workflowId: workflow.id }))).toMatchObject(
      { code: "NOT_FOUND", param: "id" },
    );
    expect(
      await rejection(deleteWorkflow({ workspaceId: ws.workspace.id, workflowId: "wf_0000000000000000" })),
    ).toMatchObject({ code: "NOT_FOUND" });
    expect(await (await getDb()).select().from(workflows).where(eq(workflows.id, workflow.id))).toHaveLength(1);
  });
});

describe("testRunWorkflow", () => {
  it("starts a sandbox run of the saved workflow with the sample variables, even while it is disabled", async () => {
    const { ws, workflow } = await setUp();
    await setWorkflowEnabled({ workspaceId: ws.workspace.id, workflowId: workflow.id, enabled: false });
    const variables = { user: { email: "sample@example.org" } };
    const run = await testRunWorkflow({ workspaceId: ws.workspace.id, workflowId: workflow.id, variables });
    expect(run).toMatchObject({
      sandbox: true,
      status: "RUNNING",
      workflowId: workflow.id,
      workflowKey: "signed-up",
      variables,
      steps: workflow.steps,
    });
    await runWorkflowStep({ workspaceId: ws.workspace.id, runId: run.id, step: 0 });
    const [message] = await (await getDb()).select().from(emailMessages).where(eq(emailMessages.workflowRunId, run.id));
    expect(message).toMatchObject({
      source: "SANDBOX_WORKFLOW",
      sandbox: true,
      status: "SUCCEEDED",
      to: ["sample@example.org"],
    });
  });

  it("refuses variables that are not an object naming `variables`; another workspace's workflow is NOT_FOUND; no run is written", async () => {
    const { ws, workflow, runCount } = await setUp();
    const other = await createWorkflowWorkspace();
    for (const variables of [[1, 2], "x", 3]) {
      const error = await rejection(
        testRunWorkflow({ workspaceId: ws.workspace.id, workflowId: workflow.id, variables }),
      );
      expect(error, JSON.stringify(variables)).toMatchObject({
        code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
        param: "variables",
      });
    }
    const foreign = await createWorkflow({
      workspaceId: other.workspace.id,
      definition: {
        name: "Theirs",
        steps: [{ type: "sendEmail", templateId: other.template.id, to: "a@example.org" }],
      },
    });
    expect(
      await rejection(testRunWorkflow({ workspaceId: ws.workspace.id, workflowId: foreign.id, variables: {} })),
    ).toMatchObject({ code: "NOT_FOUND", param: "workflowId" });
    expect(await runCount()).toBe(0);
  });
});
