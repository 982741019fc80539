import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirementCheckResource } from "@/lib/entry/api/openapi/resources-deliverability";
import { dnsRecordsFor } from "@/lib/domain/domains/dns-records";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { scopedAuthorization } from "@/lib/testing/management";
import { useSettings } from "@/lib/testing/settings";
import { GET as getOne } from "./[id]/handlers";
import { GET as history } from "./[id]/requirements/handlers";
import { POST as verify } from "./[id]/verify/handlers";

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
  useSettings({ DNS_SERVERS: `127.0.0.1:${dns.port}`, DOMAIN_VERIFICATION: undefined, BOUNCE_DOMAIN: undefined });
});
afterAll(async () => {
  await dns.close();
  useSettings({ DNS_SERVERS: undefined });
});

type Line = { id: string; status: string; fix: string | null };
const lineOf = (check: { lines: Line[] }, id: string) => check.lines.find((line) => line.id === id)!;

describe("a domain's sender requirements over the API", () => {
  it("null before a check; verify checks them; GET shows the newest; …/requirements lists the history; 404 elsewhere", async () => {
    const ws = await createTestWorkspace();
    const auth = { authorization: await scopedAuthorization(ws.workspace.id, ["domains:write"]) };
    const domain = ws.domain;
    const params = { id: domain.id };
    const before = await callRoute(getOne, `/api/v1/domains/${domain.id}`, { ...auth, params });
    expect(before.json.data.requirements).toBeNull();

    const [spf, dkim] = dnsRecordsFor(domain, null);
    dns.setTxt(spf.host, [spf.value]);
    dns.setTxt(dkim.host, [dkim.value]);
    const checked = await callRoute(verify, `/api/v1/domains/${domain.id}/verify`, { ...auth, params, method: "POST" });
    expect(checked.status).toBe(200);
    const requirements = checked.json.data.requirements;
    expect(requirements).toMatchObject({ id: expect.stringMatching(/^dchk_/), status: "fail" });
    expect(lineOf(requirements, "dkim").status).toBe("pass");
    expect(lineOf(requirements, "dmarc")).toMatchObject({
      status: "fail",
      fix: `TXT _dmarc.${domain.name} "v=DMARC1; p=none; rua=mailto:dmarc@${domain.name}"`,
    });

    expect(() => requirementCheckResource.strict().parse(requirements)).not.toThrow();
    const read = await callRoute(getOne, `/api/v1/domains/${domain.id}`, { ...auth, params });
    expect(read.json.data.requirements).toEqual(requirements);
    const listed = await callRoute(history, `/api/v1/domains/${domain.id}/requirements`, { ...auth, params });
    expect(listed.status).toBe(200);
    expect(listed.json.meta).toEqual({ count: 1 });
    expect(listed.json.data).toEqual([requirements]);

    const other = await createTestWorkspace();
    const otherAuth = { authorization: await scopedAuthorization(other.workspace.id, ["domains:write"]) };
    const foreign = await callRoute(history, `/api/v1/domains/${domain.id}/requirements`, { ...otherAuth, params });
    expect([foreign.status, foreign.json.error.param]).toEqual([404, "id"]);
    const narrow = { authorization: await scopedAuthorization(ws.workspace.id, ["emails:read"]) };
    expect((await callRoute(history, `/api/v1/domains/${domain.id}/requirements`, { ...narrow, params })).status).toBe(
      403,
    );
  });
});
