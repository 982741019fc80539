import { describe, expect, it } from "vitest";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { apiAuditEntries, expectRefusal, scopedAuthorization } from "@/lib/testing/management";
import { createWorkflowWorkspace } from "@/lib/flows/workflows/testing";
import { DELETE as remove, GET as getOne, PATCH as update } from "./[id]/handlers";
import { GET as list, POST as create } from "./handlers";

describe("/v1/unsubscribe_groups", () => {
  it("creates, lists, reads, renames, changes the key while unused, deletes; each change audited as the key", async () => {
    const ws = await createTestWorkspace();
    const auth = { authorization: await scopedAuthorization(ws.workspace.id, ["contacts:write"]) };
    const made = await callRoute(create, "/api/v1/unsubscribe_groups", {
      ...auth,
      body: { key: "news", name: "Newsletter" },
    });
    expect(made.status).toBe(201);
    const group = made.json.data;
    expect(group).toMatchObject({
      type: "UnsubscribeGroup",
      key: "news",
      name: "Newsletter",
      unsubscribedCount: 0,
      messageCount: 0,
    });
    await callRoute(create, "/api/v1/unsubscribe_groups", { ...auth, body: { key: "alerts", name: "Alerts" } });
    expect(
      (await callRoute(list, "/api/v1/unsubscribe_groups", auth)).json.data.map((g: { key: string }) => g.key),
    ).toEqual(["alerts", "news"]);
    const params = { id: group.id };
    const renamed = await callRoute(update, "/x", {
      ...auth,
      params,
      method: "PATCH",
      body: { name: "Product news", key: "product-news" },
    });
    expect(renamed.json.data).toMatchObject({ name: "Product news", key: "product-news", keyLocked: false });
    await insertTestMessage(ws.workspace.id, { groupId: group.id });
    expect((await callRoute(getOne, "/x", { ...auth, params })).json.data).toMatchObject({
      messageCount: 1,
      keyLocked: true,
    });
    await expectRefusal(
      ws.workspace.id,
      update,
      "/x",
      { ...auth, params, method: "PATCH", body: { name: "x", key: "again" } },
      { status: 400, param: "key" },
    );
    expect((await callRoute(remove, "/x", { ...auth, params, method: "DELETE" })).json.data).toEqual({
      id: group.id,
      deleted: true,
    });
    expect((await callRoute(getOne, "/x", { ...auth, params })).status).toBe(404);
    const entries = await apiAuditEntries(ws.workspace.id);
    expect(entries.map((e) => e.action)).toEqual([
      "unsubscribe_group.create",
      "unsubscribe_group.create",
      "unsubscribe_group.update",
      "unsubscribe_group.delete",
    ]);
    expect([entries[2].before, entries[2].after]).toEqual([
      { name: "Newsletter", key: "news" },
      { name: "Product news", key: "product-news" },
    ]);
  });

  it("refuses a delete while a workflow sends with the group (409 naming it), bad input naming the field, another workspace's id (404), a key without contacts:write (403)", async () => {
    const ws = await createWorkflowWorkspace();
    const other = await createTestWorkspace();
    const auth = { authorization: ws.authorization };
    const group = (
      await callRoute(create, "/api/v1/unsubscribe_groups", { ...auth, body: { key: "news", name: "News" } })
    ).json.data;
    const workflow = await ws.createWorkflow({
      key: "digest",
      steps: [{ type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}", groupKey: "news" }],
    });
    const params = { id: group.id };
    const refused = await expectRefusal(
      ws.workspace.id,
      remove,
      "/x",
      { ...auth, params, method: "DELETE" },
      { status: 409, param: "id", code: "CONFLICT" },
    );
    expect(refused.json.error.message).toContain(workflow.id);
    const cases: Array<[unknown, string]> = [
      [{}, "key"],
      [{ key: "bad key!", name: "x" }, "key"],
      [{ key: "news", name: "Dup" }, "key"],
      [{ key: "ok", name: " " }, "name"],
      [{ key: "ok", name: "x".repeat(201) }, "name"],
    ];
    for (const [body, param] of cases)
      await expectRefusal(
        ws.workspace.id,
        create,
        "/api/v1/unsubscribe_groups",
        { ...auth, body },
        { status: 400, param },
      );
    await expectRefusal(
      ws.workspace.id,
      update,
      "/x",
      { ...auth, params, method: "PATCH", body: {} },
      { status: 400, param: "name" },
    );
    const foreign = {
      id: (
        await callRoute(create, "/api/v1/unsubscribe_groups", {
          authorization: other.authorization,
          body: { key: "news", name: "Theirs" },
        })
      ).json.data.id,
    };
    for (const [handler, method, body] of [
      [getOne, "GET"],
      [update, "PATCH", { name: "Hijacked" }],
      [remove, "DELETE"],
    ] as const) {
      await expectRefusal(
        ws.workspace.id,
        handler,
        "/x",
        { ...auth, params: foreign, method, body },
        { status: 404, param: "id", code: "NOT_FOUND" },
      );
    }
    const sendOnly = { authorization: await scopedAuthorization(ws.workspace.id, ["emails:send", "domains:write"]) };
    for (const [handler, method, body] of [
      [list, "GET"],
      [create, "POST", { key: "k", name: "n" }],
      [getOne, "GET"],
      [update, "PATCH", { name: "n" }],
      [remove, "DELETE"],
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
    expect(
      (await callRoute(getOne, "/x", { authorization: other.authorization, params: foreign })).json.data.name,
    ).toBe("Theirs");
  });
});
