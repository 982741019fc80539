import { and, eq } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import nodemailer from "nodemailer";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { dmarcReportRecords, dmarcReports, inboundMessages } from "@/db/schema";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { dmarcSummaryResource } from "@/lib/entry/api/openapi/resources-deliverability";
import { startInboundServer, type InboundServer } from "@/lib/entry/inbound/inbound-server";
import { runInboundActions } from "@/lib/flows/inbound/actions/run-inbound-actions";
import { setClock } from "@/lib/foundation/clock";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";
import {
  END,
  FORWARDER_IP,
  RELAY_IP,
  SPOOF_IP,
  googleReportXml,
  gzip,
  microsoftReportXml,
  reportFilename,
  yahooReportXml,
  zip,
} from "./testing";

// DMARC aggregate reports shaped like Google's (zip), Microsoft's and Yahoo's (gzip) (testing.ts names the shapes'
// sources), sent over SMTP to the inbound listener at a route with the `dmarc` action, then read by the actions job.

let listener: InboundServer;
let dns: TestDnsServer;

beforeAll(async () => {
  dns = await startDnsServer();
  // The fixtures' passing source is this deployment's relay.
  useSettings({ DNS_SERVERS: `127.0.0.1:${dns.port}`, DELIVERY_PROVIDER: "smtp", SMTP_URL: `smtp://${RELAY_IP}:25` });
  listener = await startInboundServer({
    port: 0,
    host: "127.0.0.1",
    bounceDomain: null,
    // Room for the oversized report below (over the dmarc action's 10 MB, under the listener's limit).
    maxBytes: 24 * 1024 * 1024,
    maxConnections: 10,
    timeoutMs: 10_000,
  });
});
afterEach(() => setClock(null));
afterAll(async () => {
  await listener.close();
  await dns.close();
  useSettings({ DNS_SERVERS: undefined, DELIVERY_PROVIDER: undefined, SMTP_URL: undefined });
});

/** One report mail from `from` to dmarc@, then its actions job as the worker runs it. */
async function deliverReport(
  workspaceId: string,
  from: string,
  attachment: { filename: string; content: Buffer },
  to = "dmarc@reports.dmarc-e2e.test",
) {
  const client = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, secure: false, ignoreTLS: true });
  const subject = `Report domain: example.com Submitter: ${from} ${attachment.filename}`;
  await client.sendMail({
    from,
    to,
    subject,
    text: "A DMARC report.",
    attachments: [attachment],
  });
  client.close();
  const [mail] = await (
    await getDb()
  )
    .select({ id: inboundMessages.id })
    .from(inboundMessages)
    .where(and(eq(inboundMessages.workspaceId, workspaceId), eq(inboundMessages.subject, subject)));
  return runInboundActions({ workspaceId, inboundMessageId: mail.id });
}

describe("DMARC aggregate reports, end to end", () => {
  it("stores Google's, Microsoft's and Yahoo's reports once each, refuses a malformed one and a bomb, and sums 30 days", async () => {
    const { workspace, authorization, domain } = await createTestWorkspace();
    const { route } = await addTestInboundDomain(workspace.id, "reports.dmarc-e2e.test");
    await route({ pattern: "dmarc@reports.dmarc-e2e.test", actions: [{ type: "dmarc" }] });

    const google = { filename: reportFilename.google, content: zip("google.xml", googleReportXml()) };
    expect(await deliverReport(workspace.id, "noreply-dmarc-support@google.com", google)).toEqual([
      { index: 0, type: "dmarc", status: "stored", reports: 1 },
    ]);
    const microsoft = { filename: reportFilename.microsoft, content: gzip(microsoftReportXml()) };
    await deliverReport(workspace.id, "dmarcreport@microsoft.com", microsoft);
    const yahoo = { filename: reportFilename.yahoo, content: gzip(yahooReportXml()) };
    await deliverReport(workspace.id, "dmarchelp@yahooinc.com", yahoo);
    // Sent again (a receiver's retry): stored once.
    expect(
      await deliverReport(workspace.id, "noreply-dmarc-support@google.com", { ...google, filename: "again.zip" }),
    ).toEqual([{ index: 0, type: "dmarc", status: "stored", reports: 0, repeated: 1 }]);

    const malformed = { filename: "broken.xml", content: Buffer.from("<feedback><report_metadata>") };
    const [broken] = await deliverReport(workspace.id, "reports@broken.test", malformed);
    expect(broken).toMatchObject({ type: "dmarc", status: "failed" });
    const bomb = { filename: "bomb.xml.gz", content: gzip(new Uint8Array(50 * 1024 * 1024)) };
    const [bombed] = await deliverReport(workspace.id, "reports@bomb.test", bomb);
    expect(bombed).toMatchObject({ type: "dmarc", status: "failed", reason: expect.stringContaining("archive bomb") });

    const oversized = { filename: "huge.xml.gz", content: randomBytes(11 * 1024 * 1024) };
    const [tooLarge] = await deliverReport(workspace.id, "reports@huge.test", oversized);
    expect(tooLarge).toMatchObject({ type: "dmarc", status: "failed", reason: "huge.xml.gz: over 10 MB, not read" });

    const db = await getDb();
    const stored = await db.select().from(dmarcReports).where(eq(dmarcReports.workspaceId, workspace.id));
    expect(stored.map((report) => report.orgName).sort()).toEqual(["Enterprise Outlook", "Yahoo", "google.com"]);
    expect(stored.every((report) => report.domainId === domain.id && report.messageCount === 130)).toBe(true);
    expect(await db.$count(dmarcReportRecords, eq(dmarcReportRecords.workspaceId, workspace.id))).toBe(9);

    setClock(() => new Date(END * 1000 + 86_400_000));
    const summary = await callApi(`/v1/domains/${domain.id}/dmarc`, { authorization });
    expect(summary.status).toBe(200);
    expect(summary.json.data).toMatchObject({
      days: 30,
      reports: 3,
      policy: "quarantine", // the newest report's (Microsoft's, a second later)
      messages: 390,
      passing: 369,
      failing: { ours: 0, known: 0, unknown: 21 },
    });
    expect(() => dmarcSummaryResource.strict().parse(summary.json.data)).not.toThrow();
    expect(summary.json.data.passRate).toBeCloseTo(369 / 390, 5);
    expect(
      summary.json.data.sources.map((source: { sourceIp: string; kind: string; messages: number }) => [
        source.sourceIp,
        source.kind,
        source.messages,
      ]),
    ).toEqual([
      [RELAY_IP, "ours", 360],
      [SPOOF_IP, "unknown", 21],
      [FORWARDER_IP, "unknown", 9],
    ]);
    // 31 days on, the window holds nothing.
    setClock(() => new Date(END * 1000 + 31 * 86_400_000 + 1000));
    expect((await callApi(`/v1/domains/${domain.id}/dmarc`, { authorization })).json.data).toMatchObject({
      reports: 0,
      messages: 0,
      passRate: null,
      sources: [],
    });
  }, 60_000);

  it("a report for a domain the workspace does not send from is refused, saying which", async () => {
    const { workspace } = await createTestWorkspace();
    const { route } = await addTestInboundDomain(workspace.id, "other.dmarc-e2e.test");
    await route({ pattern: "dmarc@other.dmarc-e2e.test", actions: [{ type: "dmarc" }] });
    const other = googleReportXml().replaceAll("<domain>example.com</domain>", "<domain>elsewhere.test</domain>");
    const [result] = await deliverReport(
      workspace.id,
      "noreply-dmarc-support@google.com",
      { filename: "other.zip", content: zip("other.xml", other) },
      "dmarc@other.dmarc-e2e.test",
    );
    expect(result).toMatchObject({
      status: "failed",
      reason: expect.stringContaining("elsewhere.test, which is not a sending domain"),
    });
  });
});
