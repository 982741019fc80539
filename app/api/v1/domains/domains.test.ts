import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dnsRecordsFor } from "@/lib/domain/domains/dns-records";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { apiAuditEntries, expectRefusal, scopedAuthorization } from "@/lib/testing/management";
import { useSettings } from "@/lib/testing/settings";
import { POST as verify } from "./[id]/verify/handlers";
import { DELETE as remove, GET as getOne } from "./[id]/handlers";
import { GET as list, POST as add } from "./handlers";

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
  useSettings({ DNS_SERVERS: `127.0.0.1:${dns.port}`, DOMAIN_VERIFICATION: undefined, BOUNCE_DOMAIN: undefined });
});
afterAll(async () => {
  await dns.close();
  useSettings({ DNS_SERVERS: undefined, BOUNCE_DOMAIN: undefined });
});

describe("/v1/domains", () => {
  it("adds a domain (records to publish), lists, reads per-record state, verifies against DNS, deletes; each change audited as the key", async () => {
    const ws = await createTestWorkspace();
    const auth = { authorization: await scopedAuthorization(ws.workspace.id, ["domains:write"]) };
    const made = await callRoute(add, "/api/v1/domains", { ...auth, body: { name: " Mail.Acme.test. " } });
    expect(made.status).toBe(201);
    const domain = made.json.data;
    expect(domain).toMatchObject({
      type: "Domain",
      name: "mail.acme.test",
      status: "PENDING",
      verifiedAt: null,
      lastCheckedAt: null,
      returnPath: null,
    });
    expect(domain.records.map((r: { kind: string; host: string; state: string }) => [r.kind, r.host, r.state])).toEqual(
      [
        ["SPF", "mail.acme.test", "unchecked"],
        ["DKIM", "postwerk._domainkey.mail.acme.test", "unchecked"],
        ["DMARC", "_dmarc.mail.acme.test", "unchecked"],
      ],
    );
    expect(JSON.stringify(made.json)).not.toMatch(/PRIVATE KEY|dkimPrivate/);
    const listed = await callRoute(list, "/api/v1/domains", auth);
    expect(listed.json.data.map((d: { name: string }) => d.name)).toEqual(["example.com", "mail.acme.test"]);
    expect(listed.json.meta).toEqual({ count: 2 });

    const params = { id: domain.id };
    const [spf, dkim] = dnsRecordsFor(
      { name: "mail.acme.test", dkimSelector: "postwerk", dkimPublicKey: domain.records[1].value.split("p=")[1] },
      null,
    );
    dns.setTxt(spf.host, [spf.value]);
    const checked = await callRoute(verify, `/api/v1/domains/${domain.id}/verify`, { ...auth, params, method: "POST" });
    expect(checked.status).toBe(200);
    expect(checked.json.data).toMatchObject({
      status: "FAILED",
      lastCheckError: "DKIM missing; DMARC missing (recommended)",
    });
    expect(checked.json.data.records.map((r: { state: string; detail: string | null }) => r.state)).toEqual([
      "found",
      "missing",
      "missing",
    ]);
    expect(checked.json.data.records[0].detail).toBe(spf.value);
    // A read shows the stored outcome per record, without looking anything up.
    const read = await callRoute(getOne, `/api/v1/domains/${domain.id}`, { ...auth, params });
    expect(read.json.data.records.map((r: { state: string }) => r.state)).toEqual(["found", "missing", "missing"]);
    dns.setTxt(dkim.host, [dkim.value]);
    const verified = await callRoute(verify, `/api/v1/domains/${domain.id}/verify`, {
      ...auth,
      params,
      method: "POST",
    });
    expect(verified.json.data).toMatchObject({ status: "VERIFIED", verifiedAt: expect.any(String) });

    const deleted = await callRoute(remove, `/api/v1/domains/${domain.id}`, { ...auth, params, method: "DELETE" });
    expect(deleted.json.data).toEqual({ id: domain.id, deleted: true });
    expect((await callRoute(getOne, `/api/v1/domains/${domain.id}`, { ...auth, params })).status).toBe(404);

    const entries = await apiAuditEntries(ws.workspace.id);
    expect(entries.map((e) => [e.action, e.targetId, e.actorLabel])).toEqual([
      ["domain.add", domain.id, "only domains:write"],
      ["domain.verify", domain.id, "only domains:write"],
      ["domain.verify", domain.id, "only domains:write"],
      ["domain.delete", domain.id, "only domains:write"],
    ]);
    expect(entries[3].before).toMatchObject({ name: "mail.acme.test", status: "VERIFIED" });
  });

  it("names the bounce domain as the return path when BOUNCE_DOMAIN is set", async () => {
    useSettings({ BOUNCE_DOMAIN: "bounces.acme.test" });
    const ws = await createTestWorkspace();
    const made = await callRoute(add, "/api/v1/domains", {
      authorization: ws.authorization,
      body: { name: "acme.test" },
    });
    expect(made.json.data.returnPath).toMatchObject({ host: "bounces.acme.test", type: "MX" });
    useSettings({ BOUNCE_DOMAIN: undefined });
  });

  it("refuses bad names naming the field, another workspace's id (404) and a key without domains:write (403), writing nothing", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const auth = { authorization: ws.authorization };
    for (const body of [
      {},
      { name: "" },
      { name: 42 },
      { name: "not a domain" },
      { name: "example.com" },
      { name: "a".repeat(300) + ".test" },
    ]) {
      await expectRefusal(
        ws.workspace.id,
        add,
        "/api/v1/domains",
        { ...auth, body },
        { status: 400, param: "name", code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR" },
      );
    }
    const params = { id: other.domain.id };
    for (const [handler, method] of [
      [getOne, "GET"],
      [remove, "DELETE"],
      [verify, "POST"],
    ] as const) {
      await expectRefusal(
        ws.workspace.id,
        handler,
        `/api/v1/domains/${params.id}`,
        { ...auth, params, method },
        { status: 404, param: "id", code: "NOT_FOUND" },
      );
    }
    const sendOnly = { authorization: await scopedAuthorization(ws.workspace.id, ["emails:send", "emails:read"]) };
    const own = { id: ws.domain.id };
    for (const [handler, method, body] of [
      [list, "GET"],
      [add, "POST", { name: "new.test" }],
      [getOne, "GET"],
      [remove, "DELETE"],
      [verify, "POST"],
    ] as const) {
      const answer = await expectRefusal(
        ws.workspace.id,
        handler,
        "/api/v1/domains/x",
        { ...sendOnly, params: own, method, body },
        { status: 403, code: "FORBIDDEN" },
      );
      expect(answer.json.error.message).toContain("domains:write");
    }
    expect((await callRoute(list, "/api/v1/domains", auth)).json.data.map((d: { name: string }) => d.name)).toEqual([
      "example.com",
    ]);
  });
});
