import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi, callRoute } from "@/lib/testing/http";
import { POST as sandboxPost } from "../sandbox/batches/handlers";
import { GET as getMessages } from "./[id]/email_messages/handlers";
import { GET as getBatch } from "./[id]/handlers";
import { POST } from "./handlers";

const raw = (i: number) => ({
  from: "hello@example.com",
  to: `u${i}@example.org`,
  subject: `Message ${i}`,
  bodyHtml: `<p>${i}</p>`,
});

async function sendBatch(authorization: string, size: number, handler: unknown = POST) {
  const res = await callRoute(handler, "/api/v1/batches", {
    authorization,
    body: { emailMessages: Array.from({ length: size }, (_, i) => raw(i)) },
  });
  expect(res.status).toBe(201);
  return res.json.data as { id: string; emailMessageIds: string[] };
}

describe("GET /v1/batches/:id", () => {
  it("the Batch with emailMessageIds in request order and counts by status", async () => {
    const ws = await createTestWorkspace();
    const batch = await sendBatch(ws.authorization, 3);
    const res = await callRoute(getBatch, `/api/v1/batches/${batch.id}`, {
      authorization: ws.authorization,
      params: { id: batch.id },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      ...batch,
      counts: { PENDING: 3, SUCCEEDED: 0, PAUSED: 0, FAILED: 0, DELETED: 0, CANCELLED: 0 },
    });
    const sandbox = await sendBatch(ws.authorization, 2, sandboxPost);
    const sandboxRes = await callRoute(getBatch, `/api/v1/batches/${sandbox.id}`, {
      authorization: ws.authorization,
      params: { id: sandbox.id },
    });
    expect(sandboxRes.json.data).toMatchObject({ sandbox: true, count: 2, counts: { PENDING: 0, SUCCEEDED: 2 } });
  });

  it("404 for an unknown id or another workspace's batch; 401 without credentials; 405 on a wrong method", async () => {
    const mine = await createTestWorkspace();
    const theirs = await createTestWorkspace();
    const batch = await sendBatch(theirs.authorization, 1);
    for (const id of [batch.id, "batch_0000000000000000"]) {
      const res = await callRoute(getBatch, `/api/v1/batches/${id}`, {
        authorization: mine.authorization,
        params: { id },
      });
      expect([res.status, res.json.error.code, res.json.error.param]).toEqual([404, "NOT_FOUND", "id"]);
    }
    const anonymous = await callRoute(getBatch, `/api/v1/batches/${batch.id}`, { params: { id: batch.id } });
    expect(anonymous.status).toBe(401);
    const wrong = await callApi(`/api/v1/batches/${batch.id}`, { authorization: mine.authorization, method: "DELETE" });
    expect([wrong.status, wrong.headers.get("allow")]).toEqual([405, "GET"]);
  });
});

describe("GET /v1/batches/:id/email_messages", () => {
  it("pages 100 at a time from offset, in request order", async () => {
    const ws = await createTestWorkspace();
    const batch = await sendBatch(ws.authorization, 150);
    const page = (query: string) =>
      callRoute(getMessages, `/api/v1/batches/${batch.id}/email_messages${query}`, {
        authorization: ws.authorization,
        params: { id: batch.id },
      });

    const first = await page("");
    expect(first.status).toBe(200);
    expect(first.json.meta).toEqual({ offset: 0, limit: 100, count: 150 });
    expect(first.json.data.map((m: { id: string }) => m.id)).toEqual(batch.emailMessageIds.slice(0, 100));
    expect(first.json.data[0]).toMatchObject({
      type: "EmailMessage",
      source: "BATCH",
      batchId: batch.id,
      to: ["u0@example.org"],
    });

    const second = await page("?offset=100");
    expect(second.json.meta).toEqual({ offset: 100, limit: 100, count: 150 });
    expect(second.json.data.map((m: { id: string }) => m.id)).toEqual(batch.emailMessageIds.slice(100));

    const middle = await page("?offset=140");
    expect(middle.json.data.map((m: { to: string[] }) => m.to[0])).toEqual(
      Array.from({ length: 10 }, (_, i) => `u${140 + i}@example.org`),
    );

    const past = await page("?offset=500");
    expect([past.status, past.json.data.length, past.json.meta.count]).toEqual([200, 0, 150]);

    for (const bad of ["-1", "abc", "1.5", "9999999"]) {
      const res = await page(`?offset=${bad}`);
      expect([res.status, res.json.error.code, res.json.error.param]).toEqual([
        400,
        "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
        "offset",
      ]);
    }
  });

  it("404 for another workspace's batch, 401 without credentials, 405 on POST", async () => {
    const mine = await createTestWorkspace();
    const theirs = await createTestWorkspace();
    const batch = await sendBatch(theirs.authorization, 2);
    const path = `/api/v1/batches/${batch.id}/email_messages`;
    const foreign = await callRoute(getMessages, path, { authorization: mine.authorization, params: { id: batch.id } });
    expect([foreign.status, foreign.json.error.code]).toEqual([404, "NOT_FOUND"]);
    const anonymous = await callRoute(getMessages, path, { params: { id: batch.id } });
    expect(anonymous.status).toBe(401);
    const wrong = await callApi(path, { authorization: theirs.authorization, body: {} });
    expect([wrong.status, wrong.headers.get("allow")]).toEqual([405, "GET"]);
  });
});
