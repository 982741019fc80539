import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "@/lib/entry/cli/run-cli";
import { resetEnvForTests } from "@/lib/foundation/env";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { addDomain } from "./add-domain";
import { dnsRecordsFor, spfMechanismFor } from "./dns-records";
import { getDomainOrThrow } from "./get-domain-or-throw";
import { listDomains } from "./list-domains";
import { verifyDomain } from "./verify-domain";

let dns: TestDnsServer;

beforeAll(async () => {
  dns = await startDnsServer();
  process.env.DNS_SERVERS = `127.0.0.1:${dns.port}`;
  resetEnvForTests();
});
afterEach(() => {
  delete process.env.DOMAIN_VERIFICATION;
  resetEnvForTests();
});
afterAll(async () => {
  await dns.close();
  delete process.env.DNS_SERVERS;
  resetEnvForTests();
});

async function pendingDomain(name: string) {
  const ws = await createTestWorkspace();
  const domain = await addDomain({ workspaceId: ws.workspace.id, name });
  const [spf, dkim, dmarc] = dnsRecordsFor(domain, null);
  return { ws, domain, spf, dkim, dmarc };
}

describe("domain verification against a DNS server the test controls", () => {
  it("names each missing record, then verifies once SPF and DKIM are published; DMARC stays optional", async () => {
    const { ws, domain, spf, dkim, dmarc } = await pendingDomain("mail-one.test");
    const first = await verifyDomain(ws.workspace.id, domain.id, AUDIT_CLI_ACTOR);
    expect(first.checks.map((check) => [check.kind, check.outcome])).toEqual([
      ["SPF", "missing"],
      ["DKIM", "missing"],
      ["DMARC", "missing"],
    ]);
    expect(first.domain).toMatchObject({
      status: "FAILED",
      verifiedAt: null,
      lastCheckError: "SPF missing; DKIM missing; DMARC missing (recommended)",
    });
    expect(first.domain.lastCheckedAt).toBeInstanceOf(Date);

    dns.setTxt(spf.host, ["google-site-verification=abc", spf.value]);
    const onlySpf = await verifyDomain(ws.workspace.id, domain.id, AUDIT_CLI_ACTOR);
    expect(onlySpf.domain).toMatchObject({
      status: "FAILED",
      lastCheckError: "DKIM missing; DMARC missing (recommended)",
    });

    // A long DKIM record arrives in 255-byte chunks; they are joined before comparing.
    dns.setTxt(dkim.host, [dkim.value]);
    const verified = await verifyDomain(ws.workspace.id, domain.id, AUDIT_CLI_ACTOR);
    expect(verified.checks.map((check) => check.outcome)).toEqual(["found", "found", "missing"]);
    expect(verified.domain).toMatchObject({ status: "VERIFIED", lastCheckError: "DMARC missing (recommended)" });
    expect(verified.domain.verifiedAt).toBeInstanceOf(Date);

    dns.setTxt(dmarc.host, [dmarc.value]);
    const complete = await verifyDomain(ws.workspace.id, domain.id, AUDIT_CLI_ACTOR);
    expect(complete.domain).toMatchObject({ status: "VERIFIED", lastCheckError: null });
    expect(complete.domain.verifiedAt).toEqual(verified.domain.verifiedAt);
  });

  it("reports a wrong DKIM key and an SPF record without the provider's include as wrong values", async () => {
    const { ws, domain, dkim } = await pendingDomain("mail-two.test");
    const withInclude = dnsRecordsFor(domain, spfMechanismFor("resend"));
    expect(withInclude[0].value).toBe("v=spf1 include:amazonses.com ~all");
    dns.setTxt(domain.name, ["v=spf1 mx ~all"]);
    dns.setTxt(dkim.host, ["v=DKIM1; k=rsa; p=AAAAnotthekey"]);
    process.env.DELIVERY_PROVIDER = "resend";
    resetEnvForTests();
    try {
      const result = await verifyDomain(ws.workspace.id, domain.id, AUDIT_CLI_ACTOR);
      expect(result.checks.slice(0, 2)).toMatchObject([
        { kind: "SPF", outcome: "wrong value", detail: "v=spf1 mx ~all (lacks include:amazonses.com)" },
        { kind: "DKIM", outcome: "wrong value" },
      ]);
      expect(result.domain.status).toBe("FAILED");
      expect(result.domain.lastCheckError).toBe("SPF wrong value; DKIM wrong value; DMARC missing (recommended)");
    } finally {
      delete process.env.DELIVERY_PROVIDER;
    }
  });

  it("an unreachable resolver is a failed lookup: the status stays as it was", async () => {
    const ws = await createTestWorkspace();
    const domain = await addDomain({ workspaceId: ws.workspace.id, name: "mail-three.test", verified: true });
    const silent = await startDnsServer();
    await silent.close(); // nothing answers on this port any more
    process.env.DNS_SERVERS = `127.0.0.1:${silent.port}`;
    resetEnvForTests();
    try {
      const result = await verifyDomain(ws.workspace.id, domain.id, AUDIT_CLI_ACTOR);
      expect(result.checks.every((check) => check.outcome === "lookup failed")).toBe(true);
      expect(result.domain.status).toBe("VERIFIED");
      expect(result.domain.lastCheckError).toMatch(/^SPF lookup failed: E[A-Z]+ looking up mail-three\.test/);
    } finally {
      process.env.DNS_SERVERS = `127.0.0.1:${dns.port}`;
    }
  }, 60_000);

  it("DOMAIN_VERIFICATION=off marks the domain verified without looking anything up", async () => {
    const { ws, domain } = await pendingDomain("mail-four.test");
    process.env.DOMAIN_VERIFICATION = "off";
    resetEnvForTests();
    const result = await verifyDomain(ws.workspace.id, domain.id, AUDIT_CLI_ACTOR);
    expect(result.checks).toEqual([]);
    expect(result.domain).toMatchObject({ status: "VERIFIED", lastCheckError: null });
  });

  it("another workspace's domain id is not found, and nothing changes", async () => {
    const { domain } = await pendingDomain("mail-five.test");
    const other = await createTestWorkspace();
    await expect(verifyDomain(other.workspace.id, domain.id, AUDIT_CLI_ACTOR)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(getDomainOrThrow(other.workspace.id, domain.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await listDomains(other.workspace.id)).map((d) => d.name)).toEqual(["example.com"]);
    expect(await getDomainOrThrow(domain.workspaceId, domain.id)).toMatchObject({
      status: "PENDING",
      lastCheckedAt: null,
    });
  });

  it("`domain verify` on the CLI prints each record's outcome", async () => {
    const { ws, domain, spf, dkim } = await pendingDomain("mail-six.test");
    dns.setTxt(spf.host, [spf.value]);
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text) };
    expect(await runCli(["domain", "verify", domain.name, "--workspace", ws.workspace.id], io)).toBe(1);
    expect(out.join("\n")).toContain("DKIM  missing");
    dns.setTxt(dkim.host, [dkim.value]);
    out.length = 0;
    expect(
      await runCli(["domain", "verify", domain.id, "--workspace", ws.workspace.id, "--json"], io),
      err.join("\n"),
    ).toBe(0);
    expect(JSON.parse(out.join("\n"))).toMatchObject({
      id: domain.id,
      status: "VERIFIED",
      checks: [
        { kind: "SPF", outcome: "found" },
        { kind: "DKIM", outcome: "found" },
        { kind: "DMARC", outcome: "missing" },
      ],
    });
  });
});

describe("the test DNS server", () => {
  it("says clearly when its port is taken", async () => {
    await expect(startDnsServer({ port: dns.port })).rejects.toThrow(/127\.0\.0\.1:\d+: the port is already in use/);
  });
});
