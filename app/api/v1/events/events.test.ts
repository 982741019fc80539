import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { recordEvent } from "@/lib/records/timeline/record-event";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { sendTestEvent } from "@/lib/flows/webhooks/send-test-event";
import { createEndpoint } from "@/lib/flows/webhooks/manage-endpoints";
import { useSettings } from "@/lib/testing/settings";
import { waitFor } from "@/lib/testing/wait-for";
import { GET as feed } from "./handlers";

const serverUrl = process.env.DATABASE_URL;

async function record(workspaceId: string, messageId: string, code: EventCode) {
  await recordEvent(await getDb(), { workspaceId, messageId, code, message: code });
}

describe("GET /v1/events", () => {
  it("pages the workspace's events in recorded order with a stable cursor; types filter; sandbox, test events and other workspaces are absent", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const auth = { authorization: ws.authorization };
    const [a, b] = [await insertTestMessage(ws.workspace.id), await insertTestMessage(ws.workspace.id)];
    const sandbox = await insertTestMessage(ws.workspace.id, { sandbox: true, source: "SANDBOX_API" });
    const foreign = await insertTestMessage(other.workspace.id);
    await record(ws.workspace.id, a, "EMAIL_MESSAGE_CREATED");
    await record(ws.workspace.id, b, "EMAIL_MESSAGE_CREATED");
    await record(ws.workspace.id, sandbox, "EMAIL_MESSAGE_CREATED");
    await record(other.workspace.id, foreign, "EMAIL_MESSAGE_CREATED");
    await record(ws.workspace.id, a, "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT");
    await record(ws.workspace.id, b, "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT");
    await record(ws.workspace.id, a, "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT");
    useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true" });
    const { endpoint } = await createEndpoint(ws.workspace.id, { url: "http://127.0.0.1:9/" }, "key_test");
    await sendTestEvent(ws.workspace.id, endpoint.id);

    const seen: Array<{ type: string; message: string }> = [];
    let cursor = "";
    // On a shared PostgreSQL server, other tests' open transactions hold the newest events back for a
    // moment (the feed serves only what is older than every running transaction): wait them out.
    for (let page = 0; page < 20 && seen.length < 5; page++) {
      const answer = await callRoute(feed, `/api/v1/events?limit=2&wait=5&after=${cursor}`, auth);
      expect(answer.status).toBe(200);
      expect(answer.json.data.length).toBeLessThanOrEqual(2);
      expect(answer.json.meta.hasMore).toBe(answer.json.data.length === 2);
      for (const event of answer.json.data) seen.push({ type: event.type, message: event.data.message.id });
      expect(answer.json.meta.nextCursor).toMatch(/^\d+\.\d+$/);
      cursor = answer.json.meta.nextCursor;
    }
    expect(seen).toEqual([
      { type: "email.created", message: a },
      { type: "email.created", message: b },
      { type: "email.delivered", message: a },
      { type: "email.bounced", message: b },
      { type: "email.clicked", message: a },
    ]);
    // The cursor of the end reads nothing new, and keeps being the same cursor.
    const end = await callRoute(feed, `/api/v1/events?after=${cursor}`, auth);
    expect([end.json.data, end.json.meta.nextCursor]).toEqual([[], cursor]);

    const bounces = await callRoute(feed, "/api/v1/events?types=email.bounced,email.clicked", auth);
    expect(bounces.json.data.map((event: { type: string }) => event.type)).toEqual(["email.bounced", "email.clicked"]);
    const first = bounces.json.data[0];
    expect(first).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      createdAt: expect.any(String),
      data: {
        message: { id: b, type: "EmailMessage" },
        event: { type: "EmailMessageLog", code: "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT", bot: false },
      },
    });

    for (const [query, param] of [
      ["after=abc", "after"],
      ["limit=0", "limit"],
      ["limit=1001", "limit"],
      ["wait=31", "wait"],
      ["types=email.nope", "types"],
    ]) {
      const answer = await callRoute(feed, `/api/v1/events?${query}`, auth);
      expect([answer.status, answer.json.error.code, answer.json.error.param], query).toEqual([
        400,
        "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
        param,
      ]);
    }
    expect((await callRoute(feed, "/api/v1/events", { authorization: null })).status).toBe(401);
  });

  it("long-polls: a waiting request answers once the event is recorded, before its wait is up", async () => {
    const ws = await createTestWorkspace();
    const auth = { authorization: ws.authorization };
    const message = await insertTestMessage(ws.workspace.id);
    const { json } = await callRoute(feed, "/api/v1/events", auth);
    let answered = false;
    // The longest wait (30 s): the awaited answer below, within 20 s, can only come from the event.
    const waiting = callRoute(feed, `/api/v1/events?wait=30&after=${json.meta.nextCursor}`, auth).finally(
      () => (answered = true),
    );
    // Time for the request's first, empty read, so that it is waiting when the event is recorded.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered, "an empty page is not answered before the wait").toBe(false);
    await record(ws.workspace.id, message, "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT");
    await waitFor(() => answered, {
      what: "the waiting request to answer after the event was recorded",
      timeout: 20_000,
    });
    const answer = await waiting;
    expect(answer.json.data.map((event: { type: string }) => event.type)).toEqual(["email.delivered"]);
    // Nothing to wait for: an empty page after the configured wait (a lower bound: no machine is too slow for it), not an error.
    const idle = Date.now();
    const empty = await callRoute(feed, `/api/v1/events?wait=1&after=${answer.json.meta.nextCursor}`, auth);
    expect(empty.json.data).toEqual([]);
    expect(Date.now() - idle).toBeGreaterThanOrEqual(900);
  });

  it.skipIf(!serverUrl)(
    "never hands out a cursor past an event whose transaction commits later (PostgreSQL: concurrent transactions)",
    async () => {
      const ws = await createTestWorkspace();
      const auth = { authorization: ws.authorization };
      const [early, late] = [await insertTestMessage(ws.workspace.id), await insertTestMessage(ws.workspace.id)];
      const db = await getDb();
      let commit!: () => void;
      let recorded!: () => void;
      const inside = new Promise<void>((resolve) => (recorded = resolve));
      const open = db.transaction(async (tx) => {
        await recordEvent(tx, {
          workspaceId: ws.workspace.id,
          messageId: early,
          code: "EMAIL_MESSAGE_CREATED",
          message: "early",
        });
        recorded();
        await new Promise<void>((resolve) => (commit = resolve));
      });
      await inside;
      await record(ws.workspace.id, late, "EMAIL_MESSAGE_CREATED");
      // The later transaction committed first, but the feed holds it back while the earlier one is open.
      const before = await callRoute(feed, "/api/v1/events", auth);
      expect(before.json.data).toEqual([]);
      commit();
      await open;
      // Tests running alongside on the same server may hold older transactions open for a moment: wait them out.
      const seen: string[] = [];
      let cursor = before.json.meta.nextCursor;
      for (let round = 0; round < 10 && seen.length < 2; round++) {
        const after = await callRoute(feed, `/api/v1/events?wait=5&after=${cursor}`, auth);
        seen.push(...after.json.data.map((event: { data: { message: { id: string } } }) => event.data.message.id));
        cursor = after.json.meta.nextCursor;
      }
      expect(seen).toEqual([early, late]);
    },
  );
});
