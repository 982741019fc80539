import { eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, localInbox } from "@/db/schema";
import { stopQueue } from "@/lib/records/queue/queue";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { waitFor } from "@/lib/testing/wait-for";
import { getWorkflowRunOrThrow, type WorkflowRunView } from "./get-workflow-run-or-throw";
import { createWorkflowWorkspace, stepJobsOf } from "./testing";
import { triggerWorkflowRun } from "./trigger-workflow-run";

/** Workflow runs executed by the real workers (lib/entry/worker/worker.ts) on the real queue. */
afterEach(async () => {
  await stopWorkers();
  await stopQueue();
});

async function waitForRun(
  workspaceId: string,
  runId: string,
  done: (run: WorkflowRunView) => boolean,
): Promise<WorkflowRunView> {
  return waitFor(
    async () => {
      const run = await getWorkflowRunOrThrow(workspaceId, runId);
      return done(run) && run;
    },
    { what: `run ${runId}`, every: 100 },
  );
}

async function messages(ids: string[]) {
  const db = await getDb();
  const rows = await db
    .select()
    .from(emailMessages)
    .where(inArray(emailMessages.id, ids))
    .orderBy(emailMessages.createdAt);
  const inbox = await db
    .select({ id: localInbox.emailMessageId })
    .from(localInbox)
    .where(inArray(localInbox.emailMessageId, ids));
  return { rows, delivered: new Set(inbox.map((row) => row.id)) };
}

const variables = { user: { name: "Ann", email: "ann@example.org" }, manager: { email: "boss@example.org" } };

async function setup(sandbox: boolean, steps: (templateId: string) => unknown[]) {
  const ws = await createWorkflowWorkspace();
  const workflow = await ws.createWorkflow({ key: "welcome", steps: steps(ws.template.id) });
  const { run } = await triggerWorkflowRun({
    workspaceId: ws.workspace.id,
    sandbox,
    body: { workflowId: workflow.id, variables },
  });
  return { ws, run };
}

const sendWaitSend = (templateId: string) => [
  { type: "sendEmail", templateId, to: "{{ user.name }} <{{ user.email }}>" },
  { type: "wait", seconds: 1 },
  { type: "sendEmail", templateId, to: "{{ manager.email }}", cc: "{{ user.email }}" },
];

describe("workflow runs on real workers", () => {
  it("sendEmail → wait 1 s → sendEmail: COMPLETED with two WORKFLOW messages, delivered, `to` from Liquid", async () => {
    const { ws, run } = await setup(false, sendWaitSend);
    await startWorkers();
    const done = await waitForRun(ws.workspace.id, run.id, (r) => r.status !== "RUNNING");
    expect(done).toMatchObject({ status: "COMPLETED", reason: null, nextStep: 3 });
    expect(done.emailMessageIds).toHaveLength(2);
    await waitFor(async () => (await messages(done.emailMessageIds)).rows.every((row) => row.status === "SUCCEEDED"), {
      what: "delivery",
      every: 100,
    });
    const { rows, delivered } = await messages(done.emailMessageIds);
    expect(rows.map((row) => [row.source, row.to, row.cc, row.workflowRunId])).toEqual([
      ["WORKFLOW", ["Ann <ann@example.org>"], [], run.id],
      ["WORKFLOW", ["boss@example.org"], ["ann@example.org"], run.id],
    ]);
    expect(rows.map((row) => row.id)).toEqual(done.emailMessageIds);
    expect(delivered.size).toBe(2);
    // The wait held the second message back by at least its second.
    expect(rows[1].createdAt.getTime() - rows[0].createdAt.getTime()).toBeGreaterThanOrEqual(950);
    expect(done.completedAt!.getTime()).toBeGreaterThanOrEqual(rows[1].createdAt.getTime());
  });

  it("sandbox: SANDBOX_WORKFLOW messages, never handed to a provider", async () => {
    const { ws, run } = await setup(true, sendWaitSend);
    await startWorkers();
    const done = await waitForRun(ws.workspace.id, run.id, (r) => r.status !== "RUNNING");
    expect(done).toMatchObject({ status: "COMPLETED", sandbox: true });
    const { rows, delivered } = await messages(done.emailMessageIds);
    expect(rows.map((row) => [row.source, row.status, row.sentAt])).toEqual([
      ["SANDBOX_WORKFLOW", "SUCCEEDED", null],
      ["SANDBOX_WORKFLOW", "SUCCEEDED", null],
    ]);
    expect(delivered.size).toBe(0);
  });

  it("a wait survives a queue restart: the delayed job is in the database, and runs once workers are back", async () => {
    const { ws, run } = await setup(false, (templateId) => [
      { type: "wait", seconds: 2 },
      { type: "sendEmail", templateId, to: "{{ user.email }}" },
    ]);
    await startWorkers();
    await waitForRun(ws.workspace.id, run.id, (r) => r.nextStep === 1);
    await stopWorkers();
    await stopQueue();
    // While nothing runs, the due time passes; the step is still pending in the queue's table.
    const stepOne = async () => (await stepJobsOf(run.id)).find((job) => job.step === 1);
    await waitFor(async () => (await stepOne())!.delaySeconds < 0, {
      what: "step 1's due time to pass while no worker runs",
      every: 100,
    });
    expect(await getWorkflowRunOrThrow(ws.workspace.id, run.id)).toMatchObject({
      status: "RUNNING",
      nextStep: 1,
      emailMessageIds: [],
    });
    expect(await stepOne()).toMatchObject({ state: "created" });
    await startWorkers();
    const done = await waitForRun(ws.workspace.id, run.id, (r) => r.status !== "RUNNING");
    expect(done).toMatchObject({ status: "COMPLETED" });
    const { rows } = await messages(done.emailMessageIds);
    expect(rows.map((row) => row.to)).toEqual([["ann@example.org"]]);
    const all = await (
      await getDb()
    )
      .select({ id: emailMessages.id })
      .from(emailMessages)
      .where(eq(emailMessages.workflowRunId, run.id));
    expect(all).toHaveLength(1);
  });
});
