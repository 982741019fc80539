import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { basicAuthHeader, createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { resolveThreadIn } from "@/lib/flows/inbound/threads/resolve-thread";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { inboundReplyScenario } from "@/lib/testing/inbound-scenario";

const HOUR = 3600 * 1000;

/** A received mail threaded as the pipeline threads it: a new conversation, or the one its subject and sender join. */
async function receive(workspaceId: string, from: string, subject: string, at: Date): Promise<string> {
  const parsed = { from: { address: from }, to: [{ address: "support@in.example.com" }], cc: [], subject };
  const db = await getDb();
  const { threadId } = await db.transaction((tx) =>
    resolveThreadIn(tx, { workspaceId, parsed, replyToMessageId: null, at }),
  );
  return threadId;
}

const ids = (page: { json: { data: Array<{ id: string }> } }) => page.json.data.map((thread) => thread.id);

describe("GET /v1/threads", () => {
  it("lists conversations, filtered by participant and by the sent message they answer", async () => {
    const { ws, original, threadId } = await inboundReplyScenario();
    const all = await callApi("/v1/threads", { authorization: ws.authorization });
    expect(all.status).toBe(200);
    expect(all.json.data).toEqual([
      expect.objectContaining({
        id: threadId,
        type: "Thread",
        subject: "your order",
        participants: expect.arrayContaining(["ada@example.org"]),
      }),
    ]);
    expect(all.json.data[0]).not.toHaveProperty("messages");
    const bySent = await callApi(`/v1/threads?emailMessageId=${original}`, { authorization: ws.authorization });
    expect(ids(bySent)).toEqual([threadId]);
    const byAddress = await callApi("/v1/threads?address=ADA@example.org", { authorization: ws.authorization });
    expect(ids(byAddress)).toEqual([threadId]);
    const nobody = await callApi("/v1/threads?address=nobody@example.org", { authorization: ws.authorization });
    expect(nobody.json.data).toEqual([]);
    const other = await createTestWorkspace();
    expect((await callApi("/v1/threads", { authorization: other.authorization })).json.data).toEqual([]);
    const foreignFilter = await callApi(`/v1/threads?emailMessageId=${original}`, {
      authorization: other.authorization,
    });
    expect(foreignFilter.json.data).toEqual([]);
  });

  it("puts the newest activity first and pages it with cursors both ways; createdAt bounds when it started", async () => {
    const ws = await createTestWorkspace();
    const t0 = new Date(Date.now() - 10 * HOUR);
    const alpha = await receive(ws.workspace.id, "a@example.org", "Alpha", t0);
    const beta = await receive(ws.workspace.id, "b@example.org", "Beta", new Date(t0.getTime() + HOUR));
    const gamma = await receive(ws.workspace.id, "c@example.org", "Gamma", new Date(t0.getTime() + 2 * HOUR));
    // A reply in the oldest conversation makes it the most recent one.
    expect(await receive(ws.workspace.id, "a@example.org", "Re: Alpha", new Date(t0.getTime() + 3 * HOUR))).toBe(alpha);

    const auth = { authorization: ws.authorization };
    const first = await callApi("/v1/threads?limit=2", auth);
    expect(ids(first)).toEqual([alpha, gamma]);
    expect(first.json.data[0]).toMatchObject({
      createdAt: t0.toISOString(),
      lastMessageAt: new Date(t0.getTime() + 3 * HOUR).toISOString(),
    });
    expect(first.json.meta).toMatchObject({ count: 2, "cursor.after": gamma, "cursor.before": null });
    const second = await callApi(`/v1/threads?limit=2&cursor.after=${gamma}`, auth);
    expect(ids(second)).toEqual([beta]);
    expect(second.json.meta).toMatchObject({ "cursor.after": null, "cursor.before": beta });
    const back = await callApi(`/v1/threads?limit=2&cursor.before=${beta}`, auth);
    expect(ids(back)).toEqual([alpha, gamma]);

    const startedEarly = await callApi(
      `/v1/threads?createdAt.lt=${new Date(t0.getTime() + 90 * 60_000).toISOString()}`,
      auth,
    );
    expect(ids(startedEarly)).toEqual([alpha, beta]);
    const startedLate = await callApi(`/v1/threads?createdAt.gte=${new Date(t0.getTime() + HOUR).toISOString()}`, auth);
    expect(ids(startedLate)).toEqual([gamma, beta]);
  });

  it("answers the error envelope naming the parameter at fault", async () => {
    const ws = await createTestWorkspace();
    const auth = { authorization: ws.authorization };
    const cases: Array<[string, string]> = [
      ["address=two words", "address"],
      ["emailMessageId=", "emailMessageId"],
      ["createdAt.gte=yesterday", "createdAt.gte"],
      ["limit=51", "limit"],
      ["cursor.after=thr_unknown", "cursor.after"],
    ];
    for (const [query, param] of cases) {
      const answer = await callApi(`/v1/threads?${query}`, auth);
      expect(answer.status, query).toBe(400);
      expect(answer.json.error, query).toMatchObject({ param });
    }
    const sender = await createApiKey({
      workspaceId: ws.workspace.id,
      name: "sender",
      actor: AUDIT_SYSTEM_ACTOR,
      scopes: ["emails:send"],
    });
    const refused = await callApi("/v1/threads", { authorization: basicAuthHeader(sender.id, sender.password) });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain("inbound:read");
  });
});
