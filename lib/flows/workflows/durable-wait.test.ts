import { describe, expect, it } from "vitest";
import { type DbHandle } from "@/db/client";
import { stopQueue } from "@/lib/records/queue/queue";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { onDiskDatabases } from "@/lib/testing/on-disk-database";
import { waitFor } from "@/lib/testing/wait-for";
import { getWorkflowRunOrThrow } from "./get-workflow-run-or-throw";
import { createWorkflowWorkspace, stepJobsOf } from "./testing";
import { triggerWorkflowRun } from "./trigger-workflow-run";

/**
 * "Waits survive restarts (durable delayed jobs)": a whole restart, on an embedded database in a
 * directory on disk that is closed and reopened, whichever database the rest of the run uses.
 */
const disk = await onDiskDatabases();
const boot = disk.boot;

async function shutDown(handle: DbHandle): Promise<void> {
  await stopWorkers();
  await stopQueue();
  await disk.close(handle);
}

async function until<T extends object>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  return waitFor(
    async () => {
      const value = await read();
      return done(value) && value;
    },
    { what: "the workflow run", every: 100 },
  );
}

const stepOne = async (runId: string) => (await stepJobsOf(runId)).find((job) => job.step === 1)!;

// Only the embedded database restarts here, whatever the run's database: the PostgreSQL run (DATABASE_URL)
// would repeat the PGlite run's test, so it skips it.
describe.skipIf(process.env.DATABASE_URL)("durable waits (embedded database on disk)", () => {
  it("a run waiting when the server stops finishes after the restart, once", async () => {
    const dir = disk.tempDir("wait");

    // First life: the wait step runs and schedules its successor 2 s ahead; then the server stops.
    let handle = await boot(dir);
    const ws = await createWorkflowWorkspace();
    const workflow = await ws.createWorkflow({
      steps: [
        { type: "wait", seconds: 2 },
        { type: "sendEmail", templateId: ws.template.id, to: "{{ email }}" },
      ],
    });
    const { run } = await triggerWorkflowRun({
      workspaceId: ws.workspace.id,
      sandbox: false,
      body: { workflowId: workflow.id, variables: { email: "ann@example.org" } },
    });
    await startWorkers();
    const read = () => getWorkflowRunOrThrow(ws.workspace.id, run.id);
    await until(read, (r) => r.nextStep === 1);
    const dueAt = Date.now() + (await stepOne(run.id)).delaySeconds * 1000;
    await shutDown(handle);

    // Second life, after the due time: the delayed job was kept on disk and runs now.
    await waitFor(() => Date.now() > dueAt + 100, { what: "step 1's due time to pass while the server is down" });
    handle = await boot(dir);
    expect(await read()).toMatchObject({ status: "RUNNING", nextStep: 1, emailMessageIds: [] });
    expect(await stepOne(run.id)).toMatchObject({ state: "created" });
    await startWorkers();
    const done = await until(read, (r) => r.status !== "RUNNING");
    expect(done).toMatchObject({ status: "COMPLETED", nextStep: 2 });
    expect(done.emailMessageIds).toHaveLength(1);
  }, 60_000);
});
