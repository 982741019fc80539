import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { batches, contacts, emailMessageLogs, emailMessages } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi, callRoute } from "@/lib/testing/http";
import { POST as sandboxPost } from "../sandbox/batches/handlers";
import { POST } from "./handlers";

const raw = (i: number, extra: Record<string, unknown> = {}) => ({
  from: "Acme <hello@example.com>",
  to: `User ${i} <u${i}@example.org>`,
  subject: `Receipt ${i}`,
  bodyHtml: `<p>Receipt ${i}</p>`,
  ...extra,
});

async function rowsOf(workspaceId: string) {
  const db = await getDb();
  return {
    messages: await db.select().from(emailMessages).where(eq(emailMessages.workspaceId, workspaceId)),
    batches: await db.select().from(batches).where(eq(batches.workspaceId, workspaceId)),
    events: await db.select().from(emailMessageLogs).where(eq(emailMessageLogs.workspaceId, workspaceId)),
  };
}

async function deliveryJobs(workspaceId: string): Promise<number> {
  const result = await (
    await getDb()
  ).execute(
    sql`select count(*)::int as n from pgboss.job where name = 'deliver-message' and data->>'workspaceId' = ${workspaceId}`,
  );
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as Array<{
    n: number;
  }>;
  return rows[0].n;
}

describe("POST /v1/batches", () => {
  it("201 with the Batch: ids in request order, source BATCH, CREATED + RENDERED, contacts and jobs", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const body = {
      emailMessages: [
        raw(0),
        { templateId: template.id, to: "ann@example.org", variables: { name: "Ann" } },
        raw(2, { metadata: { n: 2 } }),
      ],
    };
    const res = await callRoute(POST, "/api/v1/batches", { authorization: ws.authorization, body });
    expect(res.status).toBe(201);
    const batch = res.json.data;
    expect(batch).toMatchObject({ type: "Batch", sandbox: false, count: 3 });
    expect(Object.keys(batch).sort()).toEqual([
      "count",
      "createdAt",
      "emailMessageIds",
      "id",
      "sandbox",
      "type",
      "updatedAt",
    ]);
    expect(batch.id).toMatch(/^batch_[0-9A-Za-z]{16}$/);
    expect(batch.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(batch.emailMessageIds).toHaveLength(3);

    const { messages, events } = await rowsOf(ws.workspace.id);
    const byId = new Map(messages.map((m) => [m.id, m]));
    batch.emailMessageIds.forEach((id: string, index: number) => {
      expect(byId.get(id)).toMatchObject({
        batchId: batch.id,
        batchIndex: index,
        source: "BATCH",
        status: "PENDING",
        sandbox: false,
      });
    });
    expect(byId.get(batch.emailMessageIds[0])!.subject).toBe("Receipt 0");
    expect(byId.get(batch.emailMessageIds[1])).toMatchObject({ subject: "Welcome, Ann", templateId: template.id });
    expect(byId.get(batch.emailMessageIds[2])!.metadata).toEqual({ n: 2 });
    for (const id of batch.emailMessageIds) {
      expect(
        events
          .filter((e) => e.emailMessageId === id)
          .map((e) => e.code)
          .sort(),
      ).toEqual(["EMAIL_MESSAGE_CREATED", "EMAIL_MESSAGE_RENDERED"]);
    }
    const people = await (await getDb()).select().from(contacts).where(eq(contacts.workspaceId, ws.workspace.id));
    expect(people.map((c) => c.email).sort()).toEqual(["ann@example.org", "u0@example.org", "u2@example.org"]);
    expect(await deliveryJobs(ws.workspace.id)).toBe(3);
  });

  it("sandbox: source SANDBOX_BATCH, SUCCEEDED at once, no contacts, no jobs, test mode does not apply", async () => {
    const ws = await createTestWorkspace({ testMode: true });
    const res = await callRoute(sandboxPost, "/api/v1/sandbox/batches", {
      authorization: ws.authorization,
      body: { emailMessages: [raw(0), raw(1)] },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ sandbox: true, count: 2 });
    const { messages, events } = await rowsOf(ws.workspace.id);
    expect(messages.map((m) => [m.source, m.status, m.sandbox])).toEqual([
      ["SANDBOX_BATCH", "SUCCEEDED", true],
      ["SANDBOX_BATCH", "SUCCEEDED", true],
    ]);
    expect(events).toHaveLength(4);
    expect(await (await getDb()).select().from(contacts).where(eq(contacts.workspaceId, ws.workspace.id))).toHaveLength(
      0,
    );
    expect(await deliveryJobs(ws.workspace.id)).toBe(0);
  });

  // No timing assertion (docs/architecture.md#test-rules: benchmarks are scripts); the long timeout is for loaded CI machines.
  it("accepts 1,000 messages in one batch, and refuses 1,001 and an empty array", { timeout: 120_000 }, async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const elements = Array.from({ length: 1000 }, (_, i) =>
      i % 2
        ? raw(i)
        : { templateId: template.id, to: `u${i}@example.org`, variables: { name: `User ${i}` }, metaId: `m-${i}` },
    );
    const res = await callRoute(POST, "/api/v1/batches", {
      authorization: ws.authorization,
      body: { emailMessages: elements },
    });
    expect(res.status).toBe(201);
    expect(res.json.data.emailMessageIds).toHaveLength(1000);
    expect(new Set(res.json.data.emailMessageIds).size).toBe(1000);
    const [{ n }] = await (
      await getDb()
    )
      .select({ n: sql<number>`count(*)::int` })
      .from(emailMessages)
      .where(and(eq(emailMessages.workspaceId, ws.workspace.id), eq(emailMessages.batchId, res.json.data.id)));
    expect(n).toBe(1000);

    for (const size of [1001, 0]) {
      const refused = await callRoute(POST, "/api/v1/batches", {
        authorization: ws.authorization,
        body: { emailMessages: Array.from({ length: size }, (_, i) => raw(i)) },
      });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toMatchObject({
        code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
        param: "emailMessages",
      });
    }
    expect((await rowsOf(ws.workspace.id)).batches).toHaveLength(1);
  });

  it("refuses a missing array, non-JSON and a body over 10 MB (413 while reading)", async () => {
    const ws = await createTestWorkspace();
    for (const body of [{}, { emailMessages: raw(0) }]) {
      const res = await callRoute(POST, "/api/v1/batches", { authorization: ws.authorization, body });
      expect([res.status, res.json.error.param]).toEqual([400, "emailMessages"]);
    }
    const notJson = await callRoute(POST, "/api/v1/batches", {
      authorization: ws.authorization,
      rawBody: "[",
      headers: { "content-type": "application/json" },
    });
    expect([notJson.status, notJson.json.error.code]).toEqual([400, "INVALID_JSON"]);
    const big = "x".repeat(1024 * 1024);
    const huge = await callRoute(POST, "/api/v1/batches", {
      authorization: ws.authorization,
      body: { emailMessages: Array.from({ length: 11 }, (_, i) => raw(i, { bodyHtml: big })) },
    });
    expect([huge.status, huge.json.error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    expect((await rowsOf(ws.workspace.id)).messages).toHaveLength(0);
  });

  it("all or nothing: details name every bad index, with full param paths, and nothing is written", async () => {
    const ws = await createTestWorkspace();
    const elements = [
      raw(0),
      raw(1, { to: "nope" }),
      raw(2),
      raw(3, { from: "x@unverified.org" }),
      "not an object",
      raw(5, { templateId: "tpl_0000000000000000" }),
      raw(6, { headers: { "X-Evil": "1" } }),
    ];
    const res = await callRoute(POST, "/api/v1/batches", {
      authorization: ws.authorization,
      body: { emailMessages: elements },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      param: "emailMessages[1].to",
    });
    expect(res.json.error.message).toMatch(/5 of 7 messages/);
    expect(res.json.error.details).toEqual([
      {
        index: 1,
        param: "emailMessages[1].to",
        code: "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR",
        message: expect.any(String),
      },
      {
        index: 3,
        param: "emailMessages[3].from",
        code: "EMAIL_MESSAGE_INVALID_SENDER_ERROR",
        message: expect.any(String),
      },
      {
        index: 4,
        param: "emailMessages[4]",
        code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
        message: expect.any(String),
      },
      {
        index: 5,
        param: "emailMessages[5].bodyHtml",
        code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
        message: expect.any(String),
      },
      {
        index: 6,
        param: "emailMessages[6].headers.X-Evil",
        code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
        message: expect.any(String),
      },
    ]);
    const rows = await rowsOf(ws.workspace.id);
    expect([rows.messages.length, rows.batches.length, rows.events.length]).toEqual([0, 0, 0]);
    expect(await deliveryJobs(ws.workspace.id)).toBe(0);
  });

  it("failures that share one code answer with that code's status (404 template, 422 test mode)", async () => {
    const ws = await createTestWorkspace({ testMode: true });
    const missing = { templateId: "tpl_0000000000000000", to: "a@example.org" };
    const notFound = await callRoute(sandboxPost, "/api/v1/sandbox/batches", {
      authorization: ws.authorization,
      body: { emailMessages: [raw(0), missing, missing] },
    });
    expect(notFound.status).toBe(404);
    expect(notFound.json.error).toMatchObject({ code: "NOT_FOUND", param: "emailMessages[1].templateId" });
    expect(notFound.json.error.details.map((d: { index: number }) => d.index)).toEqual([1, 2]);
    const testMode = await callRoute(POST, "/api/v1/batches", {
      authorization: ws.authorization,
      body: { emailMessages: [raw(0), raw(1)] },
    });
    expect(testMode.status).toBe(422);
    expect(testMode.json.error.code).toBe("EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR");
    expect(testMode.json.error.details.map((d: { param: string }) => d.param)).toEqual([
      "emailMessages[0].to",
      "emailMessages[1].to",
    ]);
    expect((await rowsOf(ws.workspace.id)).messages).toHaveLength(0);
  });

  it("answers 401 without valid credentials, and 405 with Allow on a wrong method", async () => {
    const ws = await createTestWorkspace();
    for (const authorization of [null, `Basic ${Buffer.from(`${ws.key.id}:wrong`).toString("base64")}`]) {
      const res = await callRoute(POST, "/api/v1/batches", { authorization, body: { emailMessages: [raw(0)] } });
      expect([res.status, res.json.error.code, res.headers.get("www-authenticate")]).toEqual([
        401,
        "UNAUTHORIZED",
        'Basic realm="api"',
      ]);
    }
    for (const method of ["GET", "DELETE"]) {
      const res = await callApi("/api/v1/batches", { authorization: ws.authorization, method });
      expect([res.status, res.json.error.code, res.headers.get("allow")]).toEqual([405, "METHOD_NOT_ALLOWED", "POST"]);
    }
    expect((await rowsOf(ws.workspace.id)).messages).toHaveLength(0);
  });

  it("the older paths /v1/email_messages_batch and /v1/sandbox/email_messages_batch work the same", async () => {
    const ws = await createTestWorkspace();
    const live = await callRoute(POST, "/api/v1/email_messages_batch", {
      authorization: ws.authorization,
      body: { emailMessages: [raw(0)] },
    });
    const sandbox = await callRoute(sandboxPost, "/api/v1/sandbox/email_messages_batch", {
      authorization: ws.authorization,
      body: { emailMessages: [raw(1)] },
    });
    expect([live.status, live.json.data.sandbox, sandbox.status, sandbox.json.data.sandbox]).toEqual([
      201,
      false,
      201,
      true,
    ]);
    const { messages } = await rowsOf(ws.workspace.id);
    expect(messages.map((m) => m.source).sort()).toEqual(["BATCH", "SANDBOX_BATCH"]);
  });
});

describe("POST /v1/batches – metaId idempotency per element", () => {
  it("an element matching an earlier one (metaId + body) is not created again: its position holds the earlier id", async () => {
    const ws = await createTestWorkspace();
    const first = await callRoute(POST, "/api/v1/batches", {
      authorization: ws.authorization,
      body: { emailMessages: [raw(0, { metaId: "a" }), raw(1, { metaId: "b" })] },
    });
    expect(first.status).toBe(201);
    const [a, b] = first.json.data.emailMessageIds;
    // b's body changed: a new message; a repeated in the same batch: one message for both positions.
    const second = await callRoute(POST, "/api/v1/batches", {
      authorization: ws.authorization,
      body: {
        emailMessages: [
          raw(2),
          { metaId: "a", ...raw(0) },
          raw(1, { metaId: "b", subject: "Changed" }),
          raw(0, { metaId: "a" }),
          raw(9, { metaId: "c" }),
          raw(9, { metaId: "c" }),
        ],
      },
    });
    expect(second.status).toBe(201);
    const ids: string[] = second.json.data.emailMessageIds;
    expect(second.json.data.count).toBe(6);
    expect(ids[1]).toBe(a);
    expect(ids[3]).toBe(a);
    expect(ids[2]).not.toBe(b);
    expect(ids[5]).toBe(ids[4]);
    expect(new Set([ids[0], ids[2], ids[4]]).size).toBe(3);
    const { messages } = await rowsOf(ws.workspace.id);
    expect(messages).toHaveLength(5);
    const own = messages.filter((m) => m.batchId === second.json.data.id).sort((x, y) => x.batchIndex! - y.batchIndex!);
    expect(own.map((m) => [m.id, m.batchIndex])).toEqual([
      [ids[0], 0],
      [ids[2], 2],
      [ids[4], 4],
    ]);
    // The same element in the sandbox is another environment: a new message.
    const sandbox = await callRoute(sandboxPost, "/api/v1/sandbox/batches", {
      authorization: ws.authorization,
      body: { emailMessages: [raw(0, { metaId: "a" })] },
    });
    expect(sandbox.json.data.emailMessageIds[0]).not.toBe(a);
  });

  it("the same batch again (every element with a metaId) answers 200 with the earlier batch and Idempotent-Replayed", async () => {
    const ws = await createTestWorkspace();
    const body = { emailMessages: [raw(0, { metaId: "x" }), raw(1, { metaId: "y" }), raw(0, { metaId: "x" })] };
    const first = await callRoute(POST, "/api/v1/batches", { authorization: ws.authorization, body });
    const again = await callRoute(POST, "/api/v1/email_messages_batch", { authorization: ws.authorization, body });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.data).toEqual(first.json.data);
    expect(first.json.data.emailMessageIds[2]).toBe(first.json.data.emailMessageIds[0]);
    const rows = await rowsOf(ws.workspace.id);
    expect([rows.batches.length, rows.messages.length]).toEqual([1, 2]);
    expect(await deliveryJobs(ws.workspace.id)).toBe(2);

    // Without a metaId on every element the batch is not idempotent as a whole: elements without one are new.
    const mixed = { emailMessages: [raw(0, { metaId: "x" }), raw(5)] };
    const m1 = await callRoute(POST, "/api/v1/batches", { authorization: ws.authorization, body: mixed });
    const m2 = await callRoute(POST, "/api/v1/batches", { authorization: ws.authorization, body: mixed });
    expect([m1.status, m2.status]).toEqual([201, 201]);
    expect(m2.json.data.id).not.toBe(m1.json.data.id);
    expect(m2.json.data.emailMessageIds[0]).toBe(first.json.data.emailMessageIds[0]);
    expect(m2.json.data.emailMessageIds[1]).not.toBe(m1.json.data.emailMessageIds[1]);
  });

  it("two identical batches at the same moment create one batch and one message per element", async () => {
    const ws = await createTestWorkspace();
    const body = { emailMessages: [raw(0, { metaId: "p" }), raw(1, { metaId: "q" })] };
    const results = await Promise.all(
      Array.from({ length: 3 }, () => callRoute(POST, "/api/v1/batches", { authorization: ws.authorization, body })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(results.map((r) => r.json.data.id)).size).toBe(1);
    const rows = await rowsOf(ws.workspace.id);
    expect([rows.batches.length, rows.messages.length]).toEqual([1, 2]);
    const ids = results[0].json.data.emailMessageIds;
    const created = await (
      await getDb()
    )
      .select({ id: emailMessages.id })
      .from(emailMessages)
      .where(inArray(emailMessages.id, ids));
    expect(created).toHaveLength(2);
  });
});
