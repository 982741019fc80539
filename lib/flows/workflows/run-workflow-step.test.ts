import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { domains, emailMessageLogs, emailMessages, templates, unsubscribeGroups, workflowRuns } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { getWorkflowRunOrThrow } from "./get-workflow-run-or-throw";
import { runWorkflowStep } from "./run-workflow-step";
import { createWorkflowWorkspace, stepJobsOf } from "./testing";
import { triggerWorkflowRun } from "./trigger-workflow-run";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";

/** The step handler called directly, as a worker would (no workers run in this file). */
async function start(
  ws: Awaited<ReturnType<typeof createWorkflowWorkspace>>,
  steps: unknown[],
  variables: Record<string, unknown>,
  sandbox = false,
) {
  const workflow = await ws.createWorkflow({ steps });
  const { run } = await triggerWorkflowRun({
    workspaceId: ws.workspace.id,
    sandbox,
    body: { workflowId: workflow.id, variables },
  });
  const step = (index: number) => runWorkflowStep({ workspaceId: ws.workspace.id, runId: run.id, step: index });
  const view = () => getWorkflowRunOrThrow(ws.workspace.id, run.id);
  return { run, step, view };
}

async function messagesOf(runId: string) {
  const db = await getDb();
  const rows = await db
    .select()
    .from(emailMessages)
    .where(eq(emailMessages.workflowRunId, runId))
    .orderBy(emailMessages.createdAt);
  const events = await Promise.all(
    rows.map((row) =>
      db
        .select({ code: emailMessageLogs.code })
        .from(emailMessageLogs)
        .where(eq(emailMessageLogs.emailMessageId, row.id))
        .orderBy(emailMessageLogs.id),
    ),
  );
  return rows.map((row, index) => ({ ...row, codes: events[index].map((event) => event.code) }));
}

describe("runWorkflowStep", () => {
  it("sendEmail renders its address fields with the run's variables; the last step completes the run", async () => {
    const ws = await createWorkflowWorkspace();
    const { run, step, view } = await start(
      ws,
      [
        {
          type: "sendEmail",
          templateId: ws.template.id,
          to: "{{ user.name }} <{{ user.email }}>",
          cc: "{{ manager }}",
          replyTo: "help+{{ user.id }}@example.com",
        },
      ],
      { user: { id: 7, name: "Ann Lee", email: "ann@example.org" }, manager: "" },
    );
    await step(0);
    const [message] = await messagesOf(run.id);
    expect(message).toMatchObject({
      source: "WORKFLOW",
      status: "PENDING",
      to: ["Ann Lee <ann@example.org>"],
      cc: [],
      replyTo: "help+7@example.com",
      from: "Acme <hello@example.com>",
      subject: "Hi Ann Lee",
      variables: { user: { id: 7, name: "Ann Lee", email: "ann@example.org" }, manager: "" },
      codes: ["EMAIL_MESSAGE_CREATED", "EMAIL_MESSAGE_RENDERED"],
    });
    const finished = await view();
    expect(finished).toMatchObject({ status: "COMPLETED", reason: null, nextStep: 1, emailMessageIds: [message.id] });
    expect(finished.completedAt).toBeInstanceOf(Date);
  });

  it("a retried or duplicated step job does not send twice (sequential and concurrent)", async () => {
    const ws = await createWorkflowWorkspace();
    const steps = [
      { type: "sendEmail", templateId: ws.template.id, to: "{{ email }}" },
      { type: "sendEmail", templateId: ws.template.id, to: "b@example.org" },
    ];
    const { run, step, view } = await start(ws, steps, { email: "a@example.org" });
    await step(0);
    await step(0);
    expect(await messagesOf(run.id)).toHaveLength(1);
    expect((await view()).nextStep).toBe(1);
    expect((await stepJobsOf(run.id)).map((job) => job.step)).toEqual([0, 1]);
    await Promise.all([step(1), step(1), step(1)]);
    const messages = await messagesOf(run.id);
    expect(messages.map((m) => m.to)).toEqual([["a@example.org"], ["b@example.org"]]);
    expect(await view()).toMatchObject({ status: "COMPLETED", nextStep: 2 });
    // A stale job for an earlier step after completion does nothing either.
    await step(0);
    expect(await messagesOf(run.id)).toHaveLength(2);
  });

  it("wait schedules the next step as a delayed job and sends nothing", async () => {
    const ws = await createWorkflowWorkspace();
    const steps = [
      { type: "wait", seconds: 3600 },
      { type: "sendEmail", templateId: ws.template.id, to: "a@example.org" },
    ];
    const { run, step, view } = await start(ws, steps, {});
    const before = Date.now();
    await step(0);
    expect(await view()).toMatchObject({ status: "RUNNING", nextStep: 1, emailMessageIds: [] });
    const jobs = await stepJobsOf(run.id);
    expect(jobs.map((job) => job.step)).toEqual([0, 1]);
    // Due an hour after the step ran: less what has passed since it started (and a second for rounding).
    expect(jobs[1].delaySeconds).toBeGreaterThan(3600 - (Date.now() - before) / 1000 - 1);
    expect(jobs[1].delaySeconds).toBeLessThanOrEqual(3600);
  });

  it("a rendered `to` that is empty: the message is FAILED with EMPTY_RECIPIENTS, the run FAILED, later steps not run", async () => {
    const ws = await createWorkflowWorkspace();
    const steps = [
      { type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}" },
      { type: "sendEmail", templateId: ws.template.id, to: "b@example.org" },
    ];
    const { run, step, view } = await start(ws, steps, { user: { name: "No Email" } });
    await step(0);
    const [message] = await messagesOf(run.id);
    expect(message).toMatchObject({ source: "WORKFLOW", status: "FAILED", to: [], subject: "Hi No Email" });
    expect(message.erroredAt).toBeInstanceOf(Date);
    expect(message.codes).toEqual([
      "EMAIL_MESSAGE_CREATED",
      "EMAIL_MESSAGE_RENDERED",
      "EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR",
    ]);
    const failed = await view();
    expect(failed).toMatchObject({ status: "FAILED", completedAt: null, emailMessageIds: [message.id] });
    expect(failed.reason).toBe(
      `Step 1 (sendEmail): to "{{ user.email }}" rendered with the run's variables holds no address.`,
    );
    expect((await stepJobsOf(run.id)).map((job) => job.step)).toEqual([0]);
    await step(1);
    expect(await messagesOf(run.id)).toHaveLength(1);
  });

  it("a sender domain unverified since the workflow was made: message FAILED with INVALID_SENDER", async () => {
    const ws = await createWorkflowWorkspace();
    const { run, step, view } = await start(
      ws,
      [{ type: "sendEmail", templateId: ws.template.id, to: "a@example.org" }],
      {},
    );
    await (await getDb()).update(domains).set({ status: "PENDING" }).where(eq(domains.workspaceId, ws.workspace.id));
    invalidateShortLivedCaches(); // changed behind the use cases' back: as another process would, seen within a second
    await step(0);
    const [message] = await messagesOf(run.id);
    expect(message).toMatchObject({ status: "FAILED", to: ["a@example.org"], from: "Acme <hello@example.com>" });
    expect(message.codes.at(-1)).toBe("EMAIL_MESSAGE_INVALID_SENDER_ERROR");
    expect((await view()).reason).toMatch(/^Step 1 \(sendEmail\): The sender domain example.com is not verified yet/);
  });

  it("a template deleted since the workflow was made: the run FAILED with the reason, no message", async () => {
    const ws = await createWorkflowWorkspace();
    const { run, step, view } = await start(
      ws,
      [{ type: "sendEmail", templateId: ws.template.id, to: "a@example.org" }],
      {},
    );
    await (
      await getDb()
    )
      .delete(templates)
      .where(and(eq(templates.workspaceId, ws.workspace.id), eq(templates.id, ws.template.id)));
    await step(0);
    expect(await messagesOf(run.id)).toHaveLength(0);
    expect(await view()).toMatchObject({
      status: "FAILED",
      reason: `Step 1 (sendEmail): Template ${ws.template.id} not found. It was deleted after the workflow was made.`,
    });
  });

  it("an unsubscribe group deleted since the workflow was made: message FAILED with INVALID_PARAMETER", async () => {
    const ws = await createWorkflowWorkspace();
    const db = await getDb();
    await db
      .insert(unsubscribeGroups)
      .values({ id: newId("group"), workspaceId: ws.workspace.id, key: "news", name: "News" });
    const { run, step, view } = await start(
      ws,
      [{ type: "sendEmail", templateId: ws.template.id, to: "a@example.org", groupKey: "news" }],
      {},
    );
    await db.delete(unsubscribeGroups).where(eq(unsubscribeGroups.workspaceId, ws.workspace.id));
    await step(0);
    const [message] = await messagesOf(run.id);
    expect(message).toMatchObject({ status: "FAILED", groupId: null });
    expect(message.codes.at(-1)).toBe("EMAIL_MESSAGE_INVALID_PARAMETER_ERROR");
    expect((await view()).reason).toBe("Step 1 (sendEmail): Unsubscribe group news not found.");
  });

  it("sandbox: the message is SANDBOX_WORKFLOW, SUCCEEDED at once, with no delivery job", async () => {
    const ws = await createWorkflowWorkspace({ testMode: true });
    const { run, step, view } = await start(
      ws,
      [{ type: "sendEmail", templateId: ws.template.id, to: "{{ email }}" }],
      { email: "stranger@example.org" },
      true,
    );
    await step(0);
    const [message] = await messagesOf(run.id);
    expect(message).toMatchObject({ source: "SANDBOX_WORKFLOW", sandbox: true, status: "SUCCEEDED", sentAt: null });
    expect(await view()).toMatchObject({ status: "COMPLETED", sandbox: true });
  });

  it("test mode (live): a recipient outside the workspace fails the message with INVALID_TEST_MODE_RECIPIENT", async () => {
    const ws = await createWorkflowWorkspace({ testMode: true });
    const { run, step, view } = await start(
      ws,
      [{ type: "sendEmail", templateId: ws.template.id, to: "{{ email }}" }],
      { email: "stranger@example.org" },
    );
    await step(0);
    const [message] = await messagesOf(run.id);
    expect(message).toMatchObject({
      status: "FAILED",
      codes: ["EMAIL_MESSAGE_CREATED", "EMAIL_MESSAGE_RENDERED", "EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR"],
    });
    expect((await view()).status).toBe("FAILED");
  });

  it("an unexpected error is thrown for the queue to retry; on the last attempt the run is FAILED", async () => {
    const ws = await createWorkflowWorkspace();
    const send = { type: "sendEmail" as const, templateId: ws.template.id, to: "a@example.org" };
    const { run, view } = await start(ws, [send], {});
    // A corrupt stored wait (the schema allows at most 90 days) makes the database refuse the next job.
    await (
      await getDb()
    )
      .update(workflowRuns)
      .set({ steps: [{ type: "wait", seconds: 1e300 }, send] })
      .where(eq(workflowRuns.id, run.id));
    const job = { workspaceId: ws.workspace.id, runId: run.id, step: 0 };
    await expect(runWorkflowStep(job)).rejects.toThrow();
    expect(await view()).toMatchObject({ status: "RUNNING", nextStep: 0 });
    await runWorkflowStep(job, { lastAttempt: true });
    expect(await view()).toMatchObject({
      status: "FAILED",
      reason: "Step 1 (wait) could not run because of an internal error, even after retries.",
      emailMessageIds: [],
    });
  });

  it("a run of another workspace is not touched by a job naming the wrong workspace", async () => {
    const ws = await createWorkflowWorkspace();
    const other = await createWorkflowWorkspace();
    const { run, view } = await start(ws, [{ type: "sendEmail", templateId: ws.template.id, to: "a@example.org" }], {});
    await runWorkflowStep({ workspaceId: other.workspace.id, runId: run.id, step: 0 });
    expect(await view()).toMatchObject({ status: "RUNNING", nextStep: 0 });
    const [row] = await (await getDb()).select().from(workflowRuns).where(eq(workflowRuns.id, run.id));
    expect(row.workspaceId).toBe(ws.workspace.id);
  });
});
