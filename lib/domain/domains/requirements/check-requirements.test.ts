import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { domainRequirementChecks, workspaces } from "@/db/schema";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { addDomain } from "../add-domain";
import { dnsRecordsFor } from "../dns-records";
import { checkDomainRequirements } from "./check-requirements";
import { checkDueDomains, latestRequirementCheck, requirementHistory } from "./requirement-history";
import type { RequirementCheck } from "./requirement-lines.shared";

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
beforeEach(() =>
  useSettings({ DNS_SERVERS: `127.0.0.1:${dns.port}`, DOMAIN_VERIFICATION: "dns", DELIVERY_PROVIDER: "local" }),
);
afterEach(() => useSettings({ DNS_SERVERS: undefined, DOMAIN_VERIFICATION: undefined, DELIVERY_PROVIDER: undefined }));
afterAll(async () => {
  await dns.close();
});

const DAY = 86_400_000;
const status = (check: RequirementCheck, id: string) => check.lines.find((line) => line.id === id)?.status;

/** A workspace with `name`, its SPF and DKIM published at the test's DNS server, the local provider. */
async function publishedDomain(name: string) {
  const { workspace } = await createTestWorkspace();
  const domain = await addDomain({ workspaceId: workspace.id, name, verified: true });
  const [spf, dkim] = dnsRecordsFor(domain, null);
  dns.setTxt(spf.host, [spf.value]);
  dns.setTxt(dkim.host, [dkim.value]);
  return { workspaceId: workspace.id, domain };
}

/** Live day counts for the workspace, as the Overview's triggers keep them. */
async function countsOf(workspaceId: string, counts: { sent: number; delivered: number; complained: number }) {
  const day = new Date().toISOString().slice(0, 10);
  await (
    await getDb()
  ).execute(sql`insert into overview_day_counts
    (workspace_id, day, sandbox, shard, sent, delivered, complained)
    values (${workspaceId}, ${day}, false, 999, ${counts.sent}, ${counts.delivered}, ${counts.complained})`);
}

describe("checking a domain's sender requirements against DNS the test controls", () => {
  it("answers the lines from DNS and the workspace's 30-day rates, and keeps each check in the history", async () => {
    const { workspaceId, domain } = await publishedDomain("req-one.test");
    await countsOf(workspaceId, { sent: 2000, delivered: 2000, complained: 4 });
    const first = await checkDomainRequirements(domain);
    expect(status(first, "spf")).toBe("pass");
    expect(status(first, "dkim")).toBe("pass");
    expect(status(first, "dmarc")).toBe("fail");
    expect(status(first, "complaint_rate")).toBe("warn");
    expect(first.status).toBe("fail");
    expect(first.lines.find((line) => line.id === "complaint_rate")?.why).toContain("4 complaints for 2000 delivered");

    dns.setTxt("_dmarc.req-one.test", ["v=DMARC1; p=quarantine"]);
    const second = await checkDomainRequirements(domain, new Date(Date.now() + 1000));
    expect(status(second, "dmarc")).toBe("pass");
    expect(await latestRequirementCheck(workspaceId, domain.id)).toEqual(second);
    const history = await requirementHistory(workspaceId, domain.id, { now: new Date(Date.now() + 2000), days: 30 });
    expect(history.map((check) => check.id)).toEqual([second.id, first.id]);
    // Another workspace sees none of it.
    const other = await createTestWorkspace();
    expect(await latestRequirementCheck(other.workspace.id, domain.id)).toBeNull();
  });

  it("a subdomain without its own DMARC record is covered by its organizational domain's", async () => {
    const { domain } = await publishedDomain("news.req-org.test");
    dns.setTxt("_dmarc.req-org.test", ["v=DMARC1; p=reject; sp=none"]);
    const check = await checkDomainRequirements(domain);
    expect(check.lines.find((line) => line.id === "dmarc")).toMatchObject({
      status: "pass",
      why: expect.stringContaining("inherited from _dmarc.req-org.test"),
    });
  });

  it("with DOMAIN_VERIFICATION=off nothing is looked up and the DNS lines warn", async () => {
    const { domain } = await publishedDomain("req-off.test");
    useSettings({ DOMAIN_VERIFICATION: "off" });
    const check = await checkDomainRequirements(domain);
    expect(["spf", "dkim", "dmarc", "dmarc_pass"].map((id) => status(check, id))).toEqual([
      "warn",
      "warn",
      "warn",
      "warn",
    ]);
    expect(check.lines.find((line) => line.id === "spf")?.why).toContain("DOMAIN_VERIFICATION=off");
  });

  it("the daily job checks each domain not checked for a day, and drops checks past 90 days unless held", async () => {
    const { workspaceId, domain } = await publishedDomain("req-due.test");
    const now = new Date();
    await checkDueDomains(now);
    const after = await latestRequirementCheck(workspaceId, domain.id);
    expect(after?.checkedAt).toBe(now.toISOString());
    await checkDueDomains(new Date(now.getTime() + 3600_000));
    expect((await latestRequirementCheck(workspaceId, domain.id))?.id).toBe(after?.id);
    const nextDay = new Date(now.getTime() + DAY + 1000);
    await checkDueDomains(nextDay);
    expect((await latestRequirementCheck(workspaceId, domain.id))?.checkedAt).toBe(nextDay.toISOString());

    const db = await getDb();
    const count = async () => db.$count(domainRequirementChecks, eq(domainRequirementChecks.domainId, domain.id));
    const held = await createTestWorkspace();
    const heldDomain = await addDomain({ workspaceId: held.workspace.id, name: "req-held.test", verified: true });
    await db.update(workspaces).set({ legalHold: true }).where(eq(workspaces.id, held.workspace.id));
    await checkDomainRequirements(heldDomain, now);
    const later = new Date(now.getTime() + 92 * DAY);
    await checkDueDomains(later);
    // The two old checks are gone, the one just made stays; the held workspace's old check stays too.
    expect(await count()).toBe(1);
    expect(await db.$count(domainRequirementChecks, eq(domainRequirementChecks.domainId, heldDomain.id))).toBe(2);
  });
});
