import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, unsubscribeGroups, workflows } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { getWorkflowOrThrow } from "./get-workflow-or-throw";
import { getWorkflowRunOrThrow } from "./get-workflow-run-or-throw";
import { runWorkflowStep } from "./run-workflow-step";
import { createWorkflowWorkspace } from "./testing";
import { triggerWorkflowRun } from "./trigger-workflow-run";
import { updateWorkflow } from "./update-workflow";

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
  const workflow = await ws.createWorkflow({ name: "Onboarding", key: "signed-up", enabled: false, steps: [send] });
  const update = (definition: unknown, workflowId = workflow.id) =>
    updateWorkflow({ workspaceId: ws.workspace.id, workflowId, definition });
  return { ws, send, workflow, update };
}

describe("updateWorkflow", () => {
  it("replaces name, key and steps; keeps enabled when absent; an absent key removes it; the own key is no conflict", async () => {
    const { ws, send, workflow, update } = await setUp();
    await (
      await getDb()
    )
      .insert(unsubscribeGroups)
      .values({ id: newId("group"), workspaceId: ws.workspace.id, key: "tips", name: "Tips" });
    const steps = [send, { type: "wait", seconds: 3600 }, { ...send, cc: "{{ manager }}", groupKey: "tips" }];
    const updated = await update({ name: "Welcome series", key: "signed-up", steps });
    expect(updated).toMatchObject({ id: workflow.id, name: "Welcome series", key: "signed-up", enabled: false, steps });
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(workflow.updatedAt.getTime());
    expect(updated.createdAt).toEqual(workflow.createdAt);
    const unkeyed = await update({ name: "Welcome series", enabled: true, steps: [send] });
    expect(unkeyed).toMatchObject({ key: null, enabled: true, steps: [send] });
    expect(await getWorkflowOrThrow(ws.workspace.id, workflow.id)).toEqual(unkeyed);
  });

  it("never changes a run in flight: the run keeps the steps it started with", async () => {
    const { ws, send, workflow, update } = await setUp();
    await update({ name: "Onboarding", enabled: true, steps: [send, { type: "wait", seconds: 60 }, send] });
    const { run } = await triggerWorkflowRun({
      workspaceId: ws.workspace.id,
      sandbox: false,
      body: { workflowId: workflow.id, variables: { user: { email: "a@example.org" } } },
    });
    await update({ name: "Onboarding", steps: [{ ...send, to: "other@example.org" }] });
    await runWorkflowStep({ workspaceId: ws.workspace.id, runId: run.id, step: 0 });
    const after = await getWorkflowRunOrThrow(ws.workspace.id, run.id);
    expect(after.steps).toEqual([send, { type: "wait", seconds: 60 }, send]);
    expect(after).toMatchObject({ status: "RUNNING", nextStep: 1 });
    const [message] = await (await getDb()).select().from(emailMessages).where(eq(emailMessages.workflowRunId, run.id));
    expect(message.to).toEqual(["a@example.org"]);
  });

  it("refuses bad input naming the field, with the create checks, and writes nothing", async () => {
    const { ws, send, workflow, update } = await setUp();
    const other = await createWorkflowWorkspace();
    await ws.createWorkflow({ key: "taken", steps: [send] });
    const before = await getWorkflowOrThrow(ws.workspace.id, workflow.id);
    const cases: Array<[unknown, string | undefined, string]> = [
      [{ name: "", steps: [send] }, "name", "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR"],
      [{ name: "W", key: "a b", steps: [send] }, "key", "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR"],
      [{ name: "W", steps: [send, { ...send, to: "" }] }, "steps[1].to", "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR"],
      [
        { name: "W", steps: [{ type: "wait", seconds: 0 }, send] },
        "steps[0].seconds",
        "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      ],
      [{ name: "W", steps: [{ ...send, templateId: other.template.id }] }, "steps[0].templateId", "NOT_FOUND"],
      [{ name: "W", steps: [{ ...send, groupKey: "nope" }] }, "steps[0].groupKey", "NOT_FOUND"],
      [{ name: "W", key: "taken", steps: [send] }, "key", "CONFLICT"],
      [[send], undefined, "INVALID_JSON"],
    ];
    for (const [definition, param, code] of cases) {
      const error = await rejection(update(definition));
      expect({ param: error.param, code: error.code }, JSON.stringify(definition)).toEqual({ param, code });
    }
    expect(await getWorkflowOrThrow(ws.workspace.id, workflow.id)).toEqual(before);
  });

  it("another workspace's workflow, or an unknown id, is NOT_FOUND and stays untouched", async () => {
    const { ws, send, workflow } = await setUp();
    const other = await createWorkflowWorkspace();
    const foreign = await other.createWorkflow({ name: "Theirs", steps: [{ ...send, templateId: other.template.id }] });
    const error = await rejection(
      updateWorkflow({
        workspaceId: ws.workspace.id,
        workflowId: foreign.id,
        definition: { name: "Mine", steps: [send] },
      }),
    );
    expect(error).toMatchObject({ code: "NOT_FOUND", param: "id" });
    expect(
      await rejection(
        updateWorkflow({
          workspaceId: ws.workspace.id,
          workflowId: "wf_0000000000000000",
          definition: { name: "X", steps: [send] },
        }),
      ),
    ).toMatchObject({
      code: "NOT_FOUND",
    });
    const [row] = await (await getDb()).select().from(workflows).where(eq(workflows.id, foreign.id));
    expect(row).toMatchObject({ name: "Theirs", workspaceId: other.workspace.id });
    expect((await getWorkflowOrThrow(ws.workspace.id, workflow.id)).name).toBe("Onboarding");
    expect(await rejection(getWorkflowOrThrow(ws.workspace.id, foreign.id))).toMatchObject({
      code: "NOT_FOUND",
      param: "id",
    });
  });
});
