import { describe, expect, it } from "vitest";
import { addSuppression } from "@/lib/domain/suppressions/add-suppression";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { apiAuditEntries, expectRefusal, scopedAuthorization } from "@/lib/testing/management";
import { DELETE as remove } from "./[email]/handlers";
import { GET as list, POST as add } from "./handlers";

const emails = (answer: { json: { data: Array<{ email: string }> } }) => answer.json.data.map((row) => row.email);

describe("/v1/suppressions", () => {
  it("adds, lists with reason/since/prefix filters and address cursors, removes a hard bounce (when and from which message it came)", async () => {
    const ws = await createTestWorkspace();
    const auth = { authorization: await scopedAuthorization(ws.workspace.id, ["suppressions:write"]) };
    const messageId = await insertTestMessage(ws.workspace.id);
    await addSuppression({
      workspaceId: ws.workspace.id,
      email: "bounced@example.org",
      reason: "HARD_BOUNCE",
      emailMessageId: messageId,
      detail: "550 5.1.1 no such user",
    });
    const made = await callRoute(add, "/api/v1/suppressions", {
      ...auth,
      body: { email: "Ann <ANN@example.org>", detail: "asked by phone" },
    });
    expect(made.status).toBe(201);
    expect(made.json.data).toMatchObject({
      type: "Suppression",
      email: "ann@example.org",
      reason: "MANUAL",
      detail: "asked by phone",
      emailMessageId: null,
    });
    const cutoff = new Date(Date.now() - 1).toISOString();
    await callRoute(add, "/api/v1/suppressions", { ...auth, body: { email: "bob@example.org", reason: "COMPLAINT" } });

    expect(emails(await callRoute(list, "/api/v1/suppressions", auth))).toEqual([
      "ann@example.org",
      "bob@example.org",
      "bounced@example.org",
    ]);
    expect(emails(await callRoute(list, "/api/v1/suppressions?reason=HARD_BOUNCE", auth))).toEqual([
      "bounced@example.org",
    ]);
    expect(emails(await callRoute(list, "/api/v1/suppressions?prefix=BO", auth))).toEqual([
      "bob@example.org",
      "bounced@example.org",
    ]);
    expect(
      emails(await callRoute(list, `/api/v1/suppressions?since=${encodeURIComponent(cutoff)}&reason=COMPLAINT`, auth)),
    ).toEqual(["bob@example.org"]);
    const first = await callRoute(list, "/api/v1/suppressions?limit=2", auth);
    expect(first.json.meta).toEqual({ limit: 2, nextAfter: "bob@example.org", previousBefore: null });
    expect(emails(await callRoute(list, "/api/v1/suppressions?limit=2&after=bob%40example.org", auth))).toEqual([
      "bounced@example.org",
    ]);

    const reactivated = await callRoute(remove, "/api/v1/suppressions/bounced%40example.org", {
      ...auth,
      method: "DELETE",
      params: { email: "bounced%40example.org" },
    });
    expect(reactivated.status).toBe(200);
    expect(reactivated.json.data).toMatchObject({
      email: "bounced@example.org",
      reason: "HARD_BOUNCE",
      emailMessageId: messageId,
      createdAt: expect.any(String),
      deleted: true,
    });
    const entries = await apiAuditEntries(ws.workspace.id);
    expect(entries.map((e) => [e.action, e.targetId])).toEqual([
      ["suppression.add", "ann@example.org"],
      ["suppression.add", "bob@example.org"],
      ["suppression.remove", "bounced@example.org"],
    ]);
    expect(entries[2].before).toMatchObject({ reason: "HARD_BOUNCE", emailMessageId: messageId });
  });

  it("a complaint is removed only with force and a reason, and the audit log keeps who and why; re-adding it by hand keeps it a complaint", async () => {
    const ws = await createTestWorkspace();
    const auth = { authorization: ws.authorization };
    const messageId = await insertTestMessage(ws.workspace.id);
    await addSuppression({
      workspaceId: ws.workspace.id,
      email: "carol@example.org",
      reason: "COMPLAINT",
      emailMessageId: messageId,
    });
    const readded = await callRoute(add, "/api/v1/suppressions", { ...auth, body: { email: "carol@example.org" } });
    expect(readded.json.data).toMatchObject({ reason: "COMPLAINT", emailMessageId: messageId });
    const path = "/api/v1/suppressions/carol@example.org";
    const params = { email: "carol@example.org" };
    await expectRefusal(
      ws.workspace.id,
      remove,
      path,
      { ...auth, method: "DELETE", params },
      { status: 409, param: "force", code: "CONFLICT" },
    );
    await expectRefusal(
      ws.workspace.id,
      remove,
      path,
      { ...auth, method: "DELETE", params, body: { force: false, reason: "x" } },
      { status: 409, param: "force" },
    );
    await expectRefusal(
      ws.workspace.id,
      remove,
      path,
      { ...auth, method: "DELETE", params, body: { force: true } },
      { status: 400, param: "reason" },
    );
    expect(emails(await callRoute(list, "/api/v1/suppressions", auth))).toEqual(["carol@example.org"]);
    const removed = await callRoute(remove, path, {
      ...auth,
      method: "DELETE",
      params,
      body: { force: true, reason: "Carol re-subscribed on 2026-11-20 (ticket 4411)" },
    });
    expect(removed.status).toBe(200);
    const [, entry] = await apiAuditEntries(ws.workspace.id);
    expect(entry).toMatchObject({
      action: "suppression.remove",
      actorType: "API_KEY",
      actorId: ws.key.id,
      actorLabel: "test key",
    });
    expect(entry.before).toMatchObject({ reason: "COMPLAINT", emailMessageId: messageId });
    expect(entry.after).toEqual({ force: true, why: "Carol re-subscribed on 2026-11-20 (ticket 4411)" });
  });

  it("refuses bad input naming the field, another workspace's address (404) and a key without suppressions:write (403), writing nothing", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    await addSuppression({ workspaceId: other.workspace.id, email: "dan@example.org", reason: "MANUAL" });
    const auth = { authorization: ws.authorization };
    const cases: Array<[unknown, string]> = [
      [{}, "email"],
      [{ email: "not an address" }, "email"],
      [{ email: "a@example.org, b@example.org" }, "email"],
      [{ email: "a@example.org", reason: "SPAM" }, "reason"],
      [{ email: "a@example.org", detail: "x".repeat(501) }, "detail"],
    ];
    for (const [body, param] of cases)
      await expectRefusal(ws.workspace.id, add, "/api/v1/suppressions", { ...auth, body }, { status: 400, param });
    for (const [query, param] of [
      ["reason=NOPE", "reason"],
      ["since=yesterday", "since"],
      ["limit=0", "limit"],
      ["after=a&before=b", "before"],
    ]) {
      const answer = await callRoute(list, `/api/v1/suppressions?${query}`, auth);
      expect([answer.status, answer.json.error.param], query).toEqual([400, param]);
    }
    const params = { email: "dan@example.org" };
    await expectRefusal(
      ws.workspace.id,
      remove,
      "/api/v1/suppressions/dan@example.org",
      { ...auth, method: "DELETE", params },
      { status: 404, param: "email", code: "NOT_FOUND" },
    );
    await expectRefusal(
      ws.workspace.id,
      remove,
      "/api/v1/suppressions/x",
      { ...auth, method: "DELETE", params: { email: "x" } },
      { status: 400, param: "email" },
    );
    await expectRefusal(
      ws.workspace.id,
      remove,
      "/api/v1/suppressions/dan@example.org",
      { ...auth, method: "DELETE", params, body: { force: "yes" } },
      { status: 400, param: "force" },
    );
    const sendOnly = { authorization: await scopedAuthorization(ws.workspace.id, ["emails:send", "contacts:write"]) };
    const one = "/api/v1/suppressions/dan@example.org";
    for (const [handler, path, method, body] of [
      [list, "/api/v1/suppressions", "GET"],
      [add, "/api/v1/suppressions", "POST", { email: "e@example.org" }],
      [remove, one, "DELETE"],
    ] as const) {
      const answer = await expectRefusal(
        ws.workspace.id,
        handler,
        path,
        { ...sendOnly, method, body },
        { status: 403, code: "FORBIDDEN" },
      );
      expect(answer.json.error.message).toContain("suppressions:write");
    }
    expect(emails(await callRoute(list, "/api/v1/suppressions", auth))).toEqual([]);
    expect(emails(await callRoute(list, "/api/v1/suppressions", { authorization: other.authorization }))).toEqual([
      "dan@example.org",
    ]);
  });
});
