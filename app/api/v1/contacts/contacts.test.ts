import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createUnsubscribeGroup } from "@/lib/domain/contacts/create-unsubscribe-group";
import { upsertContacts } from "@/lib/domain/contacts/upsert-contacts";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { apiAuditEntries, expectRefusal, scopedAuthorization } from "@/lib/testing/management";
import { PUT as setUnsubscribes } from "./[id]/unsubscribes/handlers";
import { GET as getOne } from "./[id]/handlers";
import { GET as list } from "./handlers";

async function seed(workspaceId: string) {
  await upsertContacts(await getDb(), workspaceId, [
    { address: "ada@example.org", name: "Ada Lovelace" },
    { address: "bob@example.org", name: "Bob" },
    { address: "carol@example.net", name: null },
  ]);
}

describe("/v1/contacts", () => {
  it("lists and searches, reads one with its groups and last messages, sets and clears its unsubscribes (audited as the key)", async () => {
    const ws = await createTestWorkspace();
    const auth = { authorization: await scopedAuthorization(ws.workspace.id, ["contacts:write"]) };
    await seed(ws.workspace.id);
    const news = await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "news", name: "News" });
    const alerts = await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "alerts", name: "Alerts" });
    const emails = (answer: { json: { data: Array<{ email: string }> } }) => answer.json.data.map((row) => row.email);
    expect(emails(await callRoute(list, "/api/v1/contacts", auth))).toEqual([
      "ada@example.org",
      "bob@example.org",
      "carol@example.net",
    ]);
    expect(emails(await callRoute(list, "/api/v1/contacts?query=lov", auth))).toEqual([]);
    expect(emails(await callRoute(list, "/api/v1/contacts?query=Ada", auth))).toEqual(["ada@example.org"]);
    expect(emails(await callRoute(list, "/api/v1/contacts?query=carol%40", auth))).toEqual(["carol@example.net"]);
    const page = await callRoute(list, "/api/v1/contacts?limit=2", auth);
    expect(page.json.meta).toEqual({ limit: 2, nextAfter: "bob@example.org", previousBefore: null });

    const ada = page.json.data[0];
    const messageId = await insertTestMessage(ws.workspace.id, {
      to: ["Ada <ada@example.org>"],
      toAddresses: ["ada@example.org"],
    });
    const params = { id: ada.id };
    const detail = await callRoute(getOne, `/api/v1/contacts/${ada.id}`, { ...auth, params });
    expect(detail.json.data).toMatchObject({
      type: "Contact",
      email: "ada@example.org",
      name: "Ada Lovelace",
      suppression: null,
    });
    expect(detail.json.data.messages.map((m: { id: string }) => m.id)).toEqual([messageId]);
    expect(detail.json.data.groups.map((g: { key: string; unsubscribed: boolean }) => [g.key, g.unsubscribed])).toEqual(
      [
        ["alerts", false],
        ["news", false],
      ],
    );

    const set = await callRoute(setUnsubscribes, "/x", {
      ...auth,
      params,
      method: "PUT",
      body: { groupIds: [news.id, news.id] },
    });
    expect(set.status).toBe(200);
    expect(set.json.data.groups.map((g: { key: string; unsubscribed: boolean }) => [g.key, g.unsubscribed])).toEqual([
      ["alerts", false],
      ["news", true],
    ]);
    // The same set again changes nothing and audits nothing.
    await callRoute(setUnsubscribes, "/x", { ...auth, params, method: "PUT", body: { groupIds: [news.id] } });
    const cleared = await callRoute(setUnsubscribes, "/x", {
      ...auth,
      params,
      method: "PUT",
      body: { groupIds: [alerts.id] },
    });
    expect(cleared.json.data.groups.map((g: { unsubscribed: boolean }) => g.unsubscribed)).toEqual([true, false]);
    const entries = await apiAuditEntries(ws.workspace.id);
    expect(entries.map((e) => [e.action, e.targetId, e.before, e.after])).toEqual([
      ["contact.unsubscribes", ada.id, { groupIds: [] }, { groupIds: [news.id] }],
      ["contact.unsubscribes", ada.id, { groupIds: [news.id] }, { groupIds: [alerts.id] }],
    ]);
  });

  it("refuses bad input naming the field, another workspace's contact or group (404/400) and a key without contacts:write (403), writing nothing", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    await seed(ws.workspace.id);
    await seed(other.workspace.id);
    const auth = { authorization: ws.authorization };
    const [mine] = (await callRoute(list, "/api/v1/contacts", auth)).json.data;
    const [theirs] = (await callRoute(list, "/api/v1/contacts", { authorization: other.authorization })).json.data;
    const theirGroup = await createUnsubscribeGroup({ workspaceId: other.workspace.id, key: "news", name: "News" });
    const params = { id: mine.id };
    for (const [body, param] of [
      [{}, "groupIds"],
      [{ groupIds: "news" }, "groupIds"],
      [{ groupIds: [theirGroup.id] }, "groupIds[0]"],
      [{ groupIds: [42] }, "groupIds"],
    ] as const) {
      await expectRefusal(
        ws.workspace.id,
        setUnsubscribes,
        "/x",
        { ...auth, params, method: "PUT", body },
        { status: 400, param },
      );
    }
    for (const [query, param] of [
      ["limit=500", "limit"],
      ["after=a&before=b", "before"],
    ]) {
      const answer = await callRoute(list, `/api/v1/contacts?${query}`, auth);
      expect([answer.status, answer.json.error.param], query).toEqual([400, param]);
    }
    const foreign = { id: theirs.id };
    await expectRefusal(
      ws.workspace.id,
      getOne,
      "/x",
      { ...auth, params: foreign, method: "GET" },
      { status: 404, param: "id", code: "NOT_FOUND" },
    );
    await expectRefusal(
      ws.workspace.id,
      setUnsubscribes,
      "/x",
      { ...auth, params: foreign, method: "PUT", body: { groupIds: [] } },
      { status: 404, param: "id" },
    );
    const sendOnly = {
      authorization: await scopedAuthorization(ws.workspace.id, ["emails:send", "suppressions:write"]),
    };
    for (const [handler, method, body] of [
      [list, "GET"],
      [getOne, "GET"],
      [setUnsubscribes, "PUT", { groupIds: [] }],
    ] as const) {
      const answer = await expectRefusal(
        ws.workspace.id,
        handler,
        "/x",
        { ...sendOnly, params, method, body },
        { status: 403, code: "FORBIDDEN" },
      );
      expect(answer.json.error.message).toContain("contacts:write");
    }
  });
});
