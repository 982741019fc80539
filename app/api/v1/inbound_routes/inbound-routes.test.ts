import { beforeAll, describe, expect, it } from "vitest";
import { basicAuthHeader, createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { getDb } from "@/db/client";
import { inboundRoutes } from "@/db/schema";
import { MAX_ROUTES_PER_DOMAIN } from "@/lib/domain/inbound/create-inbound-route";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { newId } from "@/lib/foundation/ids";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createWorkflowWorkspace } from "@/lib/flows/workflows/testing";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { apiAuditEntries, expectRefusal, scopedAuthorization } from "@/lib/testing/management";
import { useSettings } from "@/lib/testing/settings";
import { DELETE as remove, GET as getOne, PATCH as patch } from "./[id]/handlers";
import { GET as list, POST as create } from "./handlers";

const path = "/api/v1/inbound_routes";
beforeAll(() => useSettings({ DOMAIN_VERIFICATION: undefined }));

async function setup(suffix: string) {
  const ws = await createWorkflowWorkspace();
  const domain = (await addTestInboundDomain(ws.workspace.id, `in.${suffix}.test`)).domain;
  const second = (await addTestInboundDomain(ws.workspace.id, `in2.${suffix}.test`)).domain;
  const workflow = await ws.createWorkflow({
    steps: [{ type: "sendEmail", templateId: ws.template.id, to: "{{ from.address }}" }],
  });
  const auth = { authorization: await scopedAuthorization(ws.workspace.id, ["inbound:write", "inbound:read"]) };
  return { ws, domain, second, workflow, auth };
}

describe("/v1/inbound_routes", () => {
  it("creates (lower-cased, kind derived), lists by cursor and domain, reads, updates, deletes; audited", async () => {
    const { ws, domain, second, workflow, auth } = await setup("crud");
    const body = {
      pattern: "Support+{hash}@IN.crud.test.",
      name: "Support",
      actions: [
        { type: "webhook" },
        { type: "forward", to: "Team <Team@Example.ORG>", from: "Acme <hello@example.com>" },
        { type: "workflow", workflowId: workflow.id },
      ],
      dmarcFailAction: "quarantine",
      spamThreshold: 5.5,
      spamAction: "reject",
    };
    const made = await callRoute(create, path, { ...auth, body });
    expect(made.status).toBe(201);
    const route = made.json.data;
    expect(route).toEqual({
      id: expect.stringMatching(/^irt_/),
      type: "InboundRoute",
      inboundDomainId: domain.id,
      name: "Support",
      pattern: "support+{hash}@in.crud.test",
      kind: "plus",
      actions: [
        { type: "webhook" },
        { type: "forward", to: "Team@example.org", from: "Acme <hello@example.com>" },
        { type: "workflow", workflowId: workflow.id },
      ],
      dmarcFailAction: "quarantine",
      spamThreshold: 5.5,
      spamAction: "reject",
      enabled: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const exact = (await callRoute(create, path, { ...auth, body: { pattern: "help@in.crud.test" } })).json.data;
    expect(exact).toMatchObject({ kind: "exact", actions: [], dmarcFailAction: "accept", spamAction: "quarantine" });
    const all = (await callRoute(create, path, { ...auth, body: { pattern: "*@in2.crud.test" } })).json.data;
    expect(all).toMatchObject({ kind: "catch_all", inboundDomainId: second.id });

    const firstPage = await callRoute(list, `${path}?limit=2`, auth);
    expect(firstPage.json.data.map((r: { id: string }) => r.id)).toEqual([all.id, exact.id]);
    const after = firstPage.json.meta.cursor?.after ?? firstPage.json.data[1].id;
    const secondPage = await callRoute(list, `${path}?limit=2&cursor.after=${after}`, auth);
    expect(secondPage.json.data.map((r: { id: string }) => r.id)).toEqual([route.id]);
    for (const filter of [second.id, "IN2.crud.test"]) {
      const filtered = await callRoute(list, `${path}?domain=${filter}`, auth);
      expect(filtered.json.data.map((r: { id: string }) => r.id)).toEqual([all.id]);
    }
    expect((await callRoute(list, `${path}?domain=nope.test`, auth)).json.data).toEqual([]);

    const params = { id: route.id };
    const changed = await callRoute(patch, `${path}/${route.id}`, {
      ...auth,
      params,
      method: "PATCH",
      body: { enabled: false, spamThreshold: null, pattern: "desk+{hash}@in.crud.test" },
    });
    expect(changed.json.data).toMatchObject({
      enabled: false,
      spamThreshold: null,
      pattern: "desk+{hash}@in.crud.test",
    });
    expect((await callRoute(getOne, `${path}/${route.id}`, { ...auth, params })).json.data).toEqual(changed.json.data);
    // A PATCH that changes nothing writes no audit entry.
    await callRoute(patch, `${path}/${route.id}`, { ...auth, params, method: "PATCH", body: { enabled: false } });
    const deleted = await callRoute(remove, `${path}/${route.id}`, { ...auth, params, method: "DELETE" });
    expect(deleted.json.data).toEqual({ id: route.id, deleted: true });
    expect((await callRoute(getOne, `${path}/${route.id}`, { ...auth, params })).status).toBe(404);

    const entries = (await apiAuditEntries(ws.workspace.id)).filter((e) => e.targetId === route.id);
    expect(entries.map((e) => e.action)).toEqual([
      "inbound_route.create",
      "inbound_route.update",
      "inbound_route.delete",
    ]);
    expect(entries[1].before).toMatchObject({ enabled: true, spamThreshold: 5.5 });
    expect(entries[1].after).toMatchObject({ enabled: false, spamThreshold: null });
  });

  it("refuses bad bodies with 400 naming the field, a duplicate pattern with 409, a sender the workspace may not use with 422", async () => {
    const { ws, auth } = await setup("bad");
    const other = await createTestWorkspace();
    await addTestInboundDomain(other.workspace.id, "in.theirs-bad.test");
    const theirs = await callRoute(create, path, {
      authorization: other.authorization,
      body: { pattern: "x@in.theirs-bad.test" },
    });
    const ok = { pattern: "ok@in.bad.test" };
    const cases: Array<[unknown, string, number?]> = [
      [{}, "pattern"],
      [{ pattern: "no-at-sign" }, "pattern"],
      [{ pattern: "a b@in.bad.test" }, "pattern"],
      [{ pattern: "x@in.theirs-bad.test" }, "pattern"],
      [{ pattern: "x@unknown.test" }, "pattern"],
      [{ patern: "x@in.bad.test" }, "patern"],
      [{ ...ok, actions: [{ type: "webhook", extra: 1 }] }, "actions[0].extra"],
      [{ ...ok, actions: [{ type: "forward", to: "a@example.org", too: "b" }] }, "actions[0].too"],
      [{ ...ok, actions: [{ type: "explode" }] }, "actions[0].type"],
      [{ ...ok, actions: "webhook" }, "actions"],
      [{ ...ok, actions: [{ type: "forward", to: "not an address" }] }, "actions[0].to"],
      [{ ...ok, actions: [{ type: "webhook" }, { type: "forward", to: "loop@IN.BAD.TEST" }] }, "actions[1].to"],
      [{ ...ok, actions: [{ type: "forward", to: "other@in2.bad.test" }] }, "actions[0].to"],
      [
        { ...ok, actions: [{ type: "forward", to: "a@example.org", from: "x@unverified.test" }] },
        "actions[0].from",
        422,
      ],
      [{ ...ok, actions: [{ type: "workflow", workflowId: "wf_0000000000000000" }] }, "actions[0].workflowId"],
      [{ ...ok, actions: [{ type: "reject", code: 500, message: "No" }] }, "actions[0].code"],
      [{ ...ok, actions: [{ type: "reject", code: 599, message: "No" }] }, "actions[0].code"],
      [{ ...ok, actions: [{ type: "reject", code: 550, message: "No\r\nMAIL FROM:<x>" }] }, "actions[0].message"],
      [{ ...ok, actions: [{ type: "reject", code: 550, message: "x".repeat(201) }] }, "actions[0].message"],
      [{ ...ok, actions: [{ type: "reject", code: 550, message: "Naïve" }] }, "actions[0].message"],
      [{ ...ok, actions: [{ type: "webhook" }, { type: "reject", code: 550, message: "No" }] }, "actions[1]"],
      [{ ...ok, dmarcFailAction: "bounce" }, "dmarcFailAction"],
      [{ ...ok, spamThreshold: "5" }, "spamThreshold"],
      [{ ...ok, enabled: "yes" }, "enabled"],
    ];
    for (const [body, param, status] of cases) {
      await expectRefusal(ws.workspace.id, create, path, { ...auth, body }, { status: status ?? 400, param });
    }
    const typo = await callRoute(create, path, {
      ...auth,
      body: { ...ok, actions: [{ type: "forward", too: "a@example.org" }] },
    });
    expect(typo.json.error.message).toBe("Unknown field actions[0].too; did you mean to?");
    const first = await callRoute(create, path, { ...auth, body: ok });
    expect(first.status).toBe(201);
    await expectRefusal(
      ws.workspace.id,
      create,
      path,
      { ...auth, body: { pattern: "OK@in.bad.test" } },
      { status: 409, param: "pattern", code: "CONFLICT" },
    );
    const second = await callRoute(create, path, { ...auth, body: { pattern: "two@in.bad.test" } });
    await expectRefusal(
      ws.workspace.id,
      patch,
      `${path}/${second.json.data.id}`,
      { ...auth, params: { id: second.json.data.id }, method: "PATCH", body: { pattern: "ok@in.bad.test" } },
      { status: 409, param: "pattern" },
    );
    await expectRefusal(
      ws.workspace.id,
      patch,
      `${path}/${second.json.data.id}`,
      { ...auth, params: { id: second.json.data.id }, method: "PATCH", body: { enabeld: true } },
      { status: 400, param: "enabeld" },
    );

    // A key limited to senders may not set a forward from another one (as for its sends).
    const limited = await createApiKey({
      workspaceId: ws.workspace.id,
      name: "billing only",
      actor: AUDIT_SYSTEM_ACTOR,
      allowedSenders: ["billing@example.com"],
    });
    const forward = (from: string) => ({
      pattern: `f-${from.split("@")[0]}@in.bad.test`,
      actions: [{ type: "forward", to: "a@example.org", from }],
    });
    await expectRefusal(
      ws.workspace.id,
      create,
      path,
      { authorization: basicAuthHeader(limited.id, limited.password), body: forward("hello@example.com") },
      { status: 422, param: "actions[0].from", code: "EMAIL_MESSAGE_INVALID_SENDER_ERROR" },
    );
    const allowed = await callRoute(create, path, {
      authorization: basicAuthHeader(limited.id, limited.password),
      body: forward("billing@example.com"),
    });
    expect(allowed.status).toBe(201);

    // No credentials → 401; another workspace's route → 404 on every method.
    expect((await callRoute(list, path, {})).status).toBe(401);
    expect((await callRoute(create, path, { body: ok })).status).toBe(401);
    const id = theirs.json.data.id;
    for (const [handler, method] of [
      [getOne, "GET"],
      [patch, "PATCH"],
      [remove, "DELETE"],
    ] as const) {
      const answer = await callRoute(handler, `${path}/${id}`, {
        ...auth,
        params: { id },
        method,
        ...(method === "PATCH" ? { body: { enabled: false } } : {}),
      });
      expect([answer.status, answer.json.error.param], method).toEqual([404, "id"]);
    }
  });

  it("a domain holds at most MAX_ROUTES_PER_DOMAIN routes (409 naming pattern)", async () => {
    const { ws, domain, auth } = await setup("cap");
    const rows = Array.from({ length: MAX_ROUTES_PER_DOMAIN }, (_, index) => ({
      id: newId("inboundRoute"),
      workspaceId: ws.workspace.id,
      inboundDomainId: domain.id,
      pattern: `r${index}@in.cap.test`,
      kind: "exact" as const,
      localPart: `r${index}`,
    }));
    await (await getDb()).insert(inboundRoutes).values(rows);
    await expectRefusal(
      ws.workspace.id,
      create,
      path,
      { ...auth, body: { pattern: "one-more@in.cap.test" } },
      { status: 409, param: "pattern", code: "CONFLICT" },
    );
  });
});
