import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { acceptMail, deliverOnce, routingRule, smtpConnection, timelineWords } from "@/lib/testing/routing";
import { forgetDkimKeys } from "@/lib/delivery/mime/dkim-keys";
import { closeSmtpTransport } from "@/lib/delivery/providers/smtp/smtp-provider";
import { forgetMailboxFamilies } from "./mailbox-family";

/** Routing by rule (docs/delivery.md#routing-and-failover) through real SMTP relays on loopback, on both databases. */
const saved = {
  DELIVERY_PROVIDER: process.env.DELIVERY_PROVIDER,
  SMTP_URL: process.env.SMTP_URL,
  PROVIDERS_ALLOW_PRIVATE: process.env.PROVIDERS_ALLOW_PRIVATE,
  DNS_SERVERS: process.env.DNS_SERVERS,
};
let instance: SmtpSink;
let relayA: SmtpSink;
let relayB: SmtpSink;
let dns: TestDnsServer;

beforeAll(async () => {
  [instance, relayA, relayB, dns] = await Promise.all([
    startSmtpSink(),
    startSmtpSink(),
    startSmtpSink(),
    startDnsServer(),
  ]);
  dns.setMx("corp.test", [{ priority: 10, exchange: "corp-test.mail.protection.outlook.com" }]);
  dns.setMx("plain.test", [{ priority: 10, exchange: "mx.plain.test" }]);
  useSettings({
    DELIVERY_PROVIDER: "smtp",
    SMTP_URL: instance.url,
    PROVIDERS_ALLOW_PRIVATE: "true",
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
  });
});

beforeEach(() => forgetMailboxFamilies());

afterAll(async () => {
  closeSmtpTransport();
  await Promise.all([instance.close(), relayA.close(), relayB.close(), dns.close()]);
  useSettings(saved);
  forgetDkimKeys();
});

/** Which relay took the message (by its subject, unique per test). */
function receivedBy(subject: string): string[] {
  const sinks = { instance, relayA, relayB };
  return Object.entries(sinks)
    .filter(([, sink]) => sink.messages.some((message) => message.raw.toString().includes(`Subject: ${subject}`)))
    .map(([name]) => name);
}

async function workspaceWithRelays() {
  const { workspace, createTemplate } = await createTestWorkspace();
  await smtpConnection(workspace.id, "relay-a", relayA.url);
  await smtpConnection(workspace.id, "relay-b", relayB.url);
  return { ws: workspace.id, createTemplate };
}

async function sendAndDeliver(ws: string, to: string, subject: string, extra: Parameters<typeof acceptMail>[2] = {}) {
  const id = await acceptMail(ws, to, { ...extra, subject });
  expect(await deliverOnce(ws, id)).toBeNull();
  return id;
}

describe("routing rules", () => {
  it("route by recipient domain with wildcards; a message no rule matches takes the default connection", async () => {
    const { ws } = await workspaceWithRelays();
    await routingRule(ws, {
      name: "Partners",
      match: { recipientDomains: ["*.partner.test", "partner.test"] },
      connections: ["relay-b"],
    });
    await sendAndDeliver(ws, "ada@eu.partner.test", "wildcard-domain");
    await sendAndDeliver(ws, "ada@partner.test", "exact-domain");
    const other = await sendAndDeliver(ws, "ada@elsewhere.test", "no-rule");
    expect(receivedBy("wildcard-domain")).toEqual(["relayB"]);
    expect(receivedBy("exact-domain")).toEqual(["relayB"]);
    expect(receivedBy("no-rule")).toEqual(["instance"]);
    expect((await timelineWords(other)).at(-1)).toBe(
      "Sent through the SMTP relay 127.0.0.1 (connection default, no rule matched).",
    );
  });

  it("routes by mailbox family from the domain's own name and from its MX hosts", async () => {
    const { ws } = await workspaceWithRelays();
    await routingRule(ws, { name: "Microsoft", match: { mailboxFamilies: ["microsoft"] }, connections: ["relay-a"] });
    const byName = await sendAndDeliver(ws, "ada@outlook.com", "family-by-name");
    await sendAndDeliver(ws, "ada@corp.test", "family-by-mx");
    await sendAndDeliver(ws, "ada@plain.test", "family-none");
    expect(receivedBy("family-by-name")).toEqual(["relayA"]);
    expect(receivedBy("family-by-mx")).toEqual(["relayA"]);
    expect(receivedBy("family-none")).toEqual(["instance"]);
    const sent = (await readMessageState(byName)).events.find(
      (event) => event.code === "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
    )!;
    expect(sent.message).toBe("Sent through the SMTP relay 127.0.0.1 (connection relay-a, rule Microsoft).");
    expect(sent.details).toMatchObject({ connection: "relay-a" });
  });

  it("routes by stream tag and by template, the first matching rule in position order winning", async () => {
    const { ws, createTemplate } = await workspaceWithRelays();
    const template = await createTemplate();
    await routingRule(ws, { name: "Bulk", match: { streams: ["bulk"] }, connections: ["relay-a"] });
    await routingRule(ws, { name: "Receipts", match: { templateIds: [template.id] }, connections: ["relay-b"] });
    await routingRule(ws, { name: "Everything", position: 99, match: {}, connections: ["default"] });
    await sendAndDeliver(ws, "ada@example.org", "stream-bulk", { tags: ["stream:bulk"] });
    const byTemplate = await acceptMail(ws, "ada@example.org", { templateId: template.id });
    expect(await deliverOnce(ws, byTemplate)).toBeNull();
    await sendAndDeliver(ws, "ada@example.org", "stream-default");
    expect(receivedBy("stream-bulk")).toEqual(["relayA"]);
    expect((await timelineWords(byTemplate)).join("\n")).toContain("(connection relay-b, rule Receipts)");
    expect(receivedBy("stream-default")).toEqual(["instance"]);
  });

  it("a disabled rule is skipped", async () => {
    const { ws } = await workspaceWithRelays();
    await routingRule(ws, { match: { recipientDomains: ["skip.test"] }, connections: ["relay-a"], enabled: false });
    await sendAndDeliver(ws, "ada@skip.test", "disabled-rule");
    expect(receivedBy("disabled-rule")).toEqual(["instance"]);
  });
});
