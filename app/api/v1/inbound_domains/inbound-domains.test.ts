import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { callRoute } from "@/lib/testing/http";
import { apiAuditEntries, expectRefusal, scopedAuthorization } from "@/lib/testing/management";
import { useSettings } from "@/lib/testing/settings";
import { POST as verify } from "./[id]/verify/handlers";
import { DELETE as remove, GET as getOne } from "./[id]/handlers";
import { GET as list, POST as add } from "./handlers";

const MX = "mx.postwerk-h2.test";
let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
  useSettings({ DNS_SERVERS: `127.0.0.1:${dns.port}`, INBOUND_MX_HOST: MX, BOUNCE_DOMAIN: "bounces.acme-h2.test" });
});
beforeEach(() => useSettings({ DOMAIN_VERIFICATION: undefined }));
afterAll(async () => {
  await dns.close();
  useSettings({ DNS_SERVERS: undefined, INBOUND_MX_HOST: undefined, BOUNCE_DOMAIN: undefined, APP_URL: undefined });
});

const path = "/api/v1/inbound_domains";

describe("/v1/inbound_domains", () => {
  it("adds (the MX to publish), lists, reads, verifies against DNS, deletes; each change audited as the key", async () => {
    const ws = await createTestWorkspace();
    const write = { authorization: await scopedAuthorization(ws.workspace.id, ["inbound:write"]) };
    const read = { authorization: await scopedAuthorization(ws.workspace.id, ["inbound:read"]) };
    const made = await callRoute(add, path, { ...write, body: { name: " In.Acme-H2.test. " } });
    expect(made.status).toBe(201);
    const domain = made.json.data;
    expect(domain).toMatchObject({
      id: expect.stringMatching(/^idom_/),
      type: "InboundDomain",
      name: "in.acme-h2.test",
      status: "PENDING",
      verifiedAt: null,
      lastCheckedAt: null,
      records: [{ type: "MX", host: "in.acme-h2.test", value: MX, priority: 10, state: "unchecked", detail: null }],
    });
    const listed = await callRoute(list, path, read);
    expect([listed.json.meta, listed.json.data.map((d: { id: string }) => d.id)]).toEqual([{ count: 1 }, [domain.id]]);
    // A read key reads but does not change.
    expect((await callRoute(add, path, { ...read, body: { name: "x.acme-h2.test" } })).status).toBe(403);

    const params = { id: domain.id };
    const check = () => callRoute(verify, `${path}/${domain.id}/verify`, { ...write, params, method: "POST" });
    const missing = await check();
    expect(missing.json.data).toMatchObject({ status: "FAILED", lastCheckError: "MX missing" });
    dns.setMx("in.acme-h2.test", [{ priority: 10, exchange: "mx.google.example" }]);
    const wrong = await check();
    expect(wrong.json.data).toMatchObject({ status: "FAILED", records: [{ state: "wrong value" }] });
    expect(wrong.json.data.lastCheckError).toBe(`MX wrong value: points at mx.google.example, not ${MX}`);
    dns.setMx("in.acme-h2.test", [
      { priority: 20, exchange: "backup.example.org" },
      { priority: 10, exchange: `${MX.toUpperCase()}.` },
    ]);
    const verified = await check();
    expect(verified.json.data).toMatchObject({
      status: "VERIFIED",
      verifiedAt: expect.any(String),
      lastCheckError: null,
      records: [{ state: "found", detail: `${MX}, backup.example.org` }],
    });
    // A read shows the stored outcome without looking anything up.
    const again = await callRoute(getOne, `${path}/${domain.id}`, { ...read, params });
    expect(again.json.data.records[0]).toMatchObject({ state: "found", detail: null });

    const deleted = await callRoute(remove, `${path}/${domain.id}`, { ...write, params, method: "DELETE" });
    expect(deleted.json.data).toEqual({ id: domain.id, deleted: true });
    expect((await callRoute(getOne, `${path}/${domain.id}`, { ...read, params })).status).toBe(404);
    const entries = await apiAuditEntries(ws.workspace.id);
    expect(entries.map((e) => [e.action, e.targetId])).toEqual([
      ["inbound_domain.add", domain.id],
      ["inbound_domain.verify", domain.id],
      ["inbound_domain.verify", domain.id],
      ["inbound_domain.delete", domain.id],
    ]);
    expect(entries[0].after).toMatchObject({ name: "in.acme-h2.test", status: "PENDING", mxHost: MX });
  });

  it("DOMAIN_VERIFICATION=off adds it VERIFIED at once; the MX host defaults to APP_URL's host", async () => {
    useSettings({ DOMAIN_VERIFICATION: "off", INBOUND_MX_HOST: undefined, APP_URL: "https://postwerk.acme-h2.test" });
    const ws = await createTestWorkspace();
    const made = await callRoute(add, path, { authorization: ws.authorization, body: { name: "off.acme-h2.test" } });
    expect(made.json.data).toMatchObject({
      status: "VERIFIED",
      verifiedAt: expect.any(String),
      records: [{ value: "postwerk.acme-h2.test" }],
    });
    useSettings({ INBOUND_MX_HOST: MX, APP_URL: undefined });
  });

  it("one workspace per domain: 409 naming name, in this workspace or another; bad and own names are 400", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    useSettings({ APP_URL: "https://app.acme-h2.test" });
    const body = { name: "held.acme-h2.test" };
    expect((await callRoute(add, path, { authorization: ws.authorization, body })).status).toBe(201);
    for (const [workspace, words] of [
      [ws, /already added to this workspace/],
      [other, /held by another workspace/],
    ] as const) {
      const refused = await expectRefusal(
        workspace.workspace.id,
        add,
        path,
        { authorization: workspace.authorization, body: { name: "HELD.acme-h2.test." } },
        { status: 409, param: "name", code: "CONFLICT" },
      );
      expect(refused.json.error.message).toMatch(words);
    }
    for (const name of [
      "",
      "not a domain",
      "bounces.acme-h2.test",
      "x.bounces.acme-h2.test",
      MX,
      "app.acme-h2.test",
      "postwerk.test",
      42,
    ]) {
      await expectRefusal(
        ws.workspace.id,
        add,
        path,
        { authorization: ws.authorization, body: { name } },
        { status: 400, param: "name", code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR" },
      );
    }
    await expectRefusal(
      ws.workspace.id,
      add,
      path,
      { authorization: ws.authorization, body: { name: "ok.acme-h2.test", nmae: "x" } },
      { status: 400, param: "nmae" },
    );
    useSettings({ APP_URL: undefined });
  });

  it("no credentials → 401; another workspace's id → 404 on read, verify and delete", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const made = await callRoute(add, path, {
      authorization: other.authorization,
      body: { name: "theirs.acme-h2.test" },
    });
    const id = made.json.data.id;
    expect((await callRoute(list, path, {})).status).toBe(401);
    expect((await callRoute(add, path, { body: { name: "x.acme-h2.test" } })).status).toBe(401);
    const auth = { authorization: ws.authorization, params: { id } };
    for (const [handler, suffix, method] of [
      [getOne, "", "GET"],
      [verify, "/verify", "POST"],
      [remove, "", "DELETE"],
    ] as const) {
      const answer = await callRoute(handler, `${path}/${id}${suffix}`, { ...auth, method });
      expect([answer.status, answer.json.error.param], `${method} ${suffix}`).toEqual([404, "id"]);
    }
    expect(
      (await callRoute(getOne, `${path}/${id}`, { authorization: other.authorization, params: { id } })).status,
    ).toBe(200);
  });
});
