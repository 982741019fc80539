import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, workspaces } from "@/db/schema";
import { sendBatch } from "@/lib/sending/send-batch";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { AppError } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { sendMessage } from "@/lib/sending/send-message";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { waitFor } from "@/lib/testing/wait-for";
import { createWorkflowWorkspace } from "@/lib/flows/workflows/testing";
import { runWorkflowStep } from "@/lib/flows/workflows/run-workflow-step";
import { triggerWorkflowRun } from "@/lib/flows/workflows/trigger-workflow-run";
import { discardPausedMessages } from "./discard-paused-messages";
import { pauseSending } from "./pause-sending";
import { RESUME_CHUNK, resumeSending } from "./resume-sending";

const raw = (to = "ada@example.org") => ({
  from: "hello@example.com",
  to,
  subject: "Your receipt",
  bodyHtml: "<p>Total: 42 EUR</p>",
  variables: {},
});

/** Delivery jobs queued for a message (any state): pg-boss's own table. */
async function deliveryJobs(messageId: string): Promise<number> {
  const result = await (
    await getDb()
  ).execute(
    sql`select count(*)::int as n from pgboss.job where name = 'deliver-message' and data->>'messageId' = ${messageId}`,
  );
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as Array<{
    n: number;
  }>;
  return rows[0].n;
}

const CREATED = ["EMAIL_MESSAGE_CREATED", "EMAIL_MESSAGE_RENDERED"];

describe("pauseSending and acceptance while paused", () => {
  it("a live send while paused waits as PAUSED with no delivery job and a Held event naming the reason", async () => {
    const ws = await createTestWorkspace();
    await pauseSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id, reason: "Checking the list." });
    const { message } = await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body: raw() });
    expect(message.status).toBe("PAUSED");
    const state = await readMessageState(message.id);
    expect(state.message.status).toBe("PAUSED");
    expect(state.codes).toEqual([...CREATED, "EMAIL_MESSAGE_PAUSED"]);
    expect(state.events[2].message).toBe(
      "Held: sending is paused for this workspace (Checking the list). The message goes out when sending resumes.",
    );
    expect(await deliveryJobs(message.id)).toBe(0);
    expect(state.inbox).toHaveLength(0);
  });

  it("holds batches and workflow email steps too; sandbox is never paused", async () => {
    const ws = await createWorkflowWorkspace();
    await pauseSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id });
    const batch = await sendBatch({
      workspaceId: ws.workspace.id,
      sandbox: false,
      body: { emailMessages: [raw("a@example.org"), raw("b@example.org")] },
    });
    for (const id of batch.emailMessageIds) {
      expect((await readMessageState(id)).message.status).toBe("PAUSED");
      expect(await deliveryJobs(id)).toBe(0);
    }
    const workflow = await ws.createWorkflow({
      steps: [{ type: "sendEmail", templateId: ws.template.id, to: "{{ email }}" }],
    });
    const { run } = await triggerWorkflowRun({
      workspaceId: ws.workspace.id,
      sandbox: false,
      body: { workflowId: workflow.id, variables: { email: "c@example.org" } },
    });
    await runWorkflowStep({ workspaceId: ws.workspace.id, runId: run.id, step: 0 });
    const [stepMessage] = await (
      await getDb()
    )
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.workflowRunId, run.id));
    expect(stepMessage.status).toBe("PAUSED");
    expect(await deliveryJobs(stepMessage.id)).toBe(0);

    const sandbox = await sendMessage({ workspaceId: ws.workspace.id, sandbox: true, body: raw() });
    expect(sandbox.message.status).toBe("SUCCEEDED");
  });

  it("a delivery job queued before the pause holds its message instead of sending", async () => {
    const ws = await createTestWorkspace();
    const { message } = await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body: raw() });
    expect(message.status).toBe("PENDING");
    expect(await deliveryJobs(message.id)).toBe(1);
    await pauseSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id });
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    const state = await readMessageState(message.id);
    expect(state.message.status).toBe("PAUSED");
    expect(state.message.sentAt).toBeNull();
    expect(state.codes).toEqual([...CREATED, "EMAIL_MESSAGE_PAUSED"]);
    expect(state.events[2].message).toContain("(Paused by an admin)");
    expect(state.inbox).toHaveLength(0);
  });

  it("is idempotent: a second pause keeps the first reason and time; unknown workspaces are NOT_FOUND", async () => {
    const ws = await createTestWorkspace();
    await pauseSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id, reason: "First." });
    const db = await getDb();
    const [first] = await db.select().from(workspaces).where(eq(workspaces.id, ws.workspace.id));
    await pauseSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id, reason: "Second.", automatic: true });
    const [second] = await db.select().from(workspaces).where(eq(workspaces.id, ws.workspace.id));
    expect(second).toMatchObject({ sendingPaused: true, pausedReason: "First.", pausedAutomatically: false });
    expect(second.pausedAt).toEqual(first.pausedAt);

    const missing = newId("workspace");
    for (const call of [
      () => pauseSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: missing }),
      () => resumeSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: missing }),
      () => discardPausedMessages({ workspaceId: missing }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "NOT_FOUND" } satisfies Partial<AppError>);
    }
  });
});

describe("resumeSending", () => {
  it("clears the pause and delivers each held message exactly once", async () => {
    const ws = await createTestWorkspace();
    await pauseSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id });
    const held = await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body: raw() });
    const queuedBefore = await sendMessage({
      workspaceId: ws.workspace.id,
      sandbox: false,
      body: raw("b@example.org"),
    });
    expect(queuedBefore.message.status).toBe("PAUSED");

    expect(await resumeSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id })).toEqual({ resumed: 2 });
    const [workspace] = await (await getDb()).select().from(workspaces).where(eq(workspaces.id, ws.workspace.id));
    expect(workspace).toMatchObject({
      sendingPaused: false,
      pausedReason: null,
      pausedAt: null,
      pausedAutomatically: false,
    });
    expect(await resumeSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id })).toEqual({ resumed: 0 });

    await startWorkers({ pollingIntervalSeconds: 0.5 });
    try {
      await waitFor(
        async () =>
          (await readMessageState(held.message.id)).message.status === "SUCCEEDED" &&
          (await readMessageState(queuedBefore.message.id)).message.status === "SUCCEEDED",
        {
          what: "the held and the queued message to be delivered after resuming",
        },
      );
    } finally {
      await stopWorkers();
    }
    for (const id of [held.message.id, queuedBefore.message.id]) {
      const state = await readMessageState(id);
      expect(state.codes).toEqual([
        ...CREATED,
        "EMAIL_MESSAGE_PAUSED",
        "EMAIL_MESSAGE_RESUMED",
        "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
        "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
      ]);
      expect(state.inbox).toHaveLength(1);
      expect(await deliveryJobs(id)).toBe(1);
    }
  });

  it("releases more than one chunk, set-based, and queues one job per message", async () => {
    const ws = await createTestWorkspace();
    await pauseSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id });
    const count = RESUME_CHUNK + 5;
    const base = Date.now() - 60_000;
    const rows = Array.from({ length: count }, (_, index) => {
      const createdAt = new Date(base + index);
      return {
        id: newId("message", createdAt),
        workspaceId: ws.workspace.id,
        source: "API" as const,
        sandbox: false,
        status: "PAUSED" as const,
        to: [`u${index}@example.org`],
        from: "hello@example.com",
        subject: "Hi",
        bodyHtml: "<p>x</p>",
        bodyText: "x",
        createdAt,
        updatedAt: createdAt,
      };
    });
    const db = await getDb();
    await db.insert(emailMessages).values(rows);
    expect(await resumeSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id })).toEqual({
      resumed: count,
    });
    const result = await db.execute(
      sql`select count(*)::int as n from pgboss.job where name = 'deliver-message' and data->>'workspaceId' = ${ws.workspace.id}`,
    );
    const jobs = (
      (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as Array<{ n: number }>
    )[0].n;
    expect(jobs).toBe(count);
    const statuses = await db
      .select({ status: emailMessages.status })
      .from(emailMessages)
      .where(eq(emailMessages.workspaceId, ws.workspace.id));
    expect(statuses.every((row) => row.status === "PENDING")).toBe(true);
  });
});

describe("discardPausedMessages", () => {
  it("erases the paused queue (DELETED, content gone, metadata kept); nothing is sent after resuming", async () => {
    const ws = await createTestWorkspace();
    const sentBefore = await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body: raw() });
    await pauseSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id });
    const held = await sendMessage({
      workspaceId: ws.workspace.id,
      sandbox: false,
      body: {
        ...raw(),
        metadata: { order: 7 },
        attachments: [
          { name: "a.txt", contentType: "text/plain", contentBlob: Buffer.from("secret").toString("base64") },
        ],
      },
    });
    expect(await discardPausedMessages({ workspaceId: ws.workspace.id })).toEqual({ discarded: 1 });

    const state = await readMessageState(held.message.id);
    expect(state.message).toMatchObject({
      status: "DELETED",
      subject: "",
      bodyHtml: "",
      bodyText: "",
      variables: {},
      metadata: { order: 7 },
      to: ["ada@example.org"],
    });
    expect(state.message.attachments).toEqual([{ name: "a.txt", contentType: "text/plain", size: 6 }]);
    expect(state.message.contentPurgedAt).toBeInstanceOf(Date);
    expect(state.codes).toEqual([...CREATED, "EMAIL_MESSAGE_PAUSED", "EMAIL_MESSAGE_ERASED"]);
    expect(state.events[1].message).not.toContain("Your receipt");
    // The workspace stays paused; the message queued before the pause is not discarded (it is PENDING).
    expect((await readMessageState(sentBefore.message.id)).message.status).toBe("PENDING");
    expect(await resumeSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id })).toEqual({ resumed: 0 });
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: held.message.id }, { attempt: 0 });
    expect((await readMessageState(held.message.id)).inbox).toHaveLength(0);
  });
});
