import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { workflows } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { auditTrail, scopedAuthorization, withFailingAuditWrites } from "@/lib/testing/management";
import { createWorkflowWorkspace } from "@/lib/flows/workflows/testing";
import * as disable from "./[id]/disable/handlers";
import * as enable from "./[id]/enable/handlers";
import * as one from "./[id]/handlers";
import * as all from "./handlers";

const ACTIONS = ["workflow.create", "workflow.update", "workflow.enable", "workflow.disable", "workflow.delete"];
const rowOf = async (id: string) => (await (await getDb()).select().from(workflows).where(eq(workflows.id, id)))[0];

const create = (authorization: string, body: unknown) =>
  callRoute(all.POST, "/api/v1/workflows", { authorization, body });
const list = (authorization: string, query = "") => callRoute(all.GET, `/api/v1/workflows${query}`, { authorization });
const get = (authorization: string, id: string) =>
  callRoute(one.GET, `/api/v1/workflows/${id}`, { authorization, params: { id } });
const patch = (authorization: string, id: string, body: unknown) =>
  callRoute(one.PATCH, `/api/v1/workflows/${id}`, { method: "PATCH", authorization, params: { id }, body });
const remove = (authorization: string, id: string) =>
  callRoute(one.DELETE, `/api/v1/workflows/${id}`, { method: "DELETE", authorization, params: { id } });
const toggle = (route: typeof enable, authorization: string, id: string) =>
  callRoute(route.POST, `/api/v1/workflows/${id}/${route === enable ? "enable" : "disable"}`, {
    method: "POST",
    authorization,
  });

async function setUp() {
  const ws = await createWorkflowWorkspace();
  const send = { type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}" };
  return {
    ws,
    send,
    definition: { name: "Onboarding", key: "user.signed_up", steps: [send, { type: "wait", seconds: 3600 }, send] },
  };
}

describe("/v1/workflows", () => {
  it("creates, lists (keyset), gets, patches, disables, enables and deletes, each change audited as the API key", async () => {
    const { ws, send, definition } = await setUp();
    const created = await create(ws.authorization, definition);
    expect(created.status).toBe(201);
    expect(created.json.data).toMatchObject({
      type: "Workflow",
      name: "Onboarding",
      key: "user.signed_up",
      enabled: true,
      steps: definition.steps,
    });
    const id = created.json.data.id;
    const second = (await create(ws.authorization, { name: "Receipt", steps: [send] })).json.data;
    const page = await list(ws.authorization, "?limit=1");
    expect([page.json.data.map((w: { id: string }) => w.id), page.json.meta["cursor.after"]]).toEqual([
      [second.id],
      second.id,
    ]);
    expect(
      (await list(ws.authorization, `?limit=1&cursor.after=${second.id}`)).json.data.map((w: { id: string }) => w.id),
    ).toEqual([id]);
    expect((await get(ws.authorization, id)).json.data.steps).toHaveLength(3);

    const renamed = await patch(ws.authorization, id, { name: "Welcome", enabled: null });
    expect(renamed.json.data).toMatchObject({
      name: "Welcome",
      key: "user.signed_up",
      enabled: true,
      steps: definition.steps,
    });
    const shorter = await patch(ws.authorization, id, { steps: [send], key: null });
    expect([shorter.status, shorter.json.data.key, shorter.json.data.steps]).toEqual([200, null, [send]]);
    expect((await toggle(disable, ws.authorization, id)).json.data.enabled).toBe(false);
    expect((await toggle(disable, ws.authorization, id)).json.data.enabled).toBe(false);
    expect((await toggle(enable, ws.authorization, id)).json.data.enabled).toBe(true);
    const deleted = await remove(ws.authorization, id);
    expect([deleted.status, deleted.json.data]).toEqual([200, { id, deleted: true }]);
    expect(await rowOf(id)).toBeUndefined();

    const trail = (await auditTrail(ws.workspace.id, ACTIONS)).filter((entry) => entry.targetId === id);
    expect(trail.map((entry) => [entry.action, entry.actorType, entry.actorId])).toEqual(
      [
        "workflow.create",
        "workflow.update",
        "workflow.update",
        "workflow.disable",
        "workflow.enable",
        "workflow.delete",
      ].map((action) => [action, "API_KEY", ws.key.id]),
    );
    expect(trail[1]).toMatchObject({ before: { name: "Onboarding" }, after: { name: "Welcome" } });
    expect(trail[2]).toMatchObject({
      before: { key: "user.signed_up", stepCount: 3 },
      after: { key: null, stepCount: 1, changed: ["steps"] },
    });
    expect(trail[5]).toMatchObject({ before: { name: "Welcome" }, after: null });
  });

  it("names the field at fault with the builder's checks, and writes nothing for a refused change", async () => {
    const { ws, send, definition } = await setUp();
    const other = await createTestWorkspace();
    const foreignTemplate = await other.createTemplate();
    const cases: Array<[unknown, number, string | undefined]> = [
      [{ ...definition, name: " " }, 400, "name"],
      [{ ...definition, key: "has space" }, 400, "key"],
      [{ ...definition, steps: [] }, 400, "steps"],
      [{ ...definition, steps: [send, { type: "wait", seconds: 0 }, send] }, 400, "steps[1].seconds"],
      [{ ...definition, steps: [{ ...send, to: "{{ user.email" }] }, 400, "steps[0].to"],
      [{ ...definition, steps: [{ type: "sms" }] }, 400, "steps[0].type"],
      [{ ...definition, steps: [send, { type: "wait", seconds: 5 }] }, 400, "steps"],
      [{ ...definition, enabled: "yes" }, 400, "enabled"],
      [{ ...definition, steps: [{ ...send, templateId: foreignTemplate.id }] }, 404, "steps[0].templateId"],
      [{ ...definition, steps: [{ ...send, groupKey: "no-such-group" }] }, 404, "steps[0].groupKey"],
      [[definition], 400, undefined],
    ];
    for (const [body, status, param] of cases) {
      const res = await create(ws.authorization, body);
      expect([res.status, res.json.error?.param], JSON.stringify(body).slice(0, 120)).toEqual([status, param]);
    }
    const first = (await create(ws.authorization, definition)).json.data;
    const taken = await create(ws.authorization, { ...definition, name: "Copy" });
    expect([taken.status, taken.json.error.code, taken.json.error.param]).toEqual([409, "CONFLICT", "key"]);
    const mine = (await create(ws.authorization, { name: "Other", key: "other", steps: [send] })).json.data;
    for (const [body, status, param] of [
      [{ key: "user.signed_up" }, 409, "key"],
      [{ steps: [{ type: "wait", seconds: 5 }] }, 400, "steps"],
      [{ name: "" }, 400, "name"],
      [[1], 400, undefined],
    ] as const) {
      const res = await patch(ws.authorization, mine.id, body);
      expect([res.status, res.json.error?.param], JSON.stringify(body)).toEqual([status, param]);
    }
    expect(await rowOf(mine.id)).toMatchObject({ name: "Other", key: "other" });
    expect((await auditTrail(ws.workspace.id, ACTIONS)).map((entry) => entry.targetId)).toEqual([first.id, mine.id]);
    expect((await list(ws.authorization, "?limit=0")).json.error.param).toBe("limit");
  });

  it("answers another workspace's workflow as 404 on every operation and changes nothing", async () => {
    const { ws, definition } = await setUp();
    const theirs = (await create(ws.authorization, definition)).json.data;
    const other = await createTestWorkspace();
    for (const res of [
      await get(other.authorization, theirs.id),
      await patch(other.authorization, theirs.id, { name: "Mine" }),
      await toggle(disable, other.authorization, theirs.id),
      await toggle(enable, other.authorization, theirs.id),
      await remove(other.authorization, theirs.id),
    ]) {
      expect([res.status, res.json.error.code, res.json.error.param]).toEqual([404, "NOT_FOUND", "id"]);
    }
    expect((await list(other.authorization)).json.data).toEqual([]);
    expect(await rowOf(theirs.id)).toMatchObject({ name: "Onboarding", enabled: true });
    expect(await auditTrail(other.workspace.id, ACTIONS)).toEqual([]);
  });

  it("needs workflows:write for every operation, reads included: 403 naming it", async () => {
    const { ws, definition } = await setUp();
    const workflow = (await create(ws.authorization, definition)).json.data;
    for (const scopes of [["templates:write", "emails:send", "emails:read"], ["templates:read"]] as const) {
      const key = await scopedAuthorization(ws.workspace.id, [...scopes]);
      for (const res of [
        await list(key),
        await create(key, definition),
        await get(key, workflow.id),
        await patch(key, workflow.id, { name: "x" }),
        await toggle(disable, key, workflow.id),
        await toggle(enable, key, workflow.id),
        await remove(key, workflow.id),
      ]) {
        expect([res.status, res.json.error.code, res.json.error.message]).toEqual([
          403,
          "FORBIDDEN",
          expect.stringContaining("workflows:write"),
        ]);
      }
    }
    const writer = await scopedAuthorization(ws.workspace.id, ["workflows:write"]);
    expect((await get(writer, workflow.id)).status).toBe(200);
    expect((await toggle(disable, writer, workflow.id)).status).toBe(200);
  });

  it("writes the audit entry in the change's transaction: when it cannot be written, the change is undone", async () => {
    const { ws, definition } = await setUp();
    const workflow = (await create(ws.authorization, definition)).json.data;
    await withFailingAuditWrites(ws.workspace.id, async () => {
      expect((await create(ws.authorization, { ...definition, key: "other" })).status).toBe(500);
      expect((await patch(ws.authorization, workflow.id, { name: "Changed" })).status).toBe(500);
      expect((await toggle(disable, ws.authorization, workflow.id)).status).toBe(500);
      expect((await remove(ws.authorization, workflow.id)).status).toBe(500);
    });
    expect(await rowOf(workflow.id)).toMatchObject({ name: "Onboarding", enabled: true });
    expect((await list(ws.authorization)).json.data.map((w: { id: string }) => w.id)).toEqual([workflow.id]);
  });
});
