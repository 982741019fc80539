import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConfiguredInbound } from "@/lib/entry/inbound/start-inbound";
import type { InboundServer } from "@/lib/entry/inbound/inbound-server";
import { env } from "@/lib/foundation/env";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { useSettings } from "@/lib/testing/settings";
import { buildBenchMails, newSenderKey, senderDnsRecords, type SenderKey } from "./inbound-mail";
import { countStored, setupInboundBench } from "./inbound-setup";

/**
 * `npm run bench:inbound`'s setting, run small: the bench measures what it claims only if every mail is stored,
 * routed to its webhook, linked to the sent message it answers, and passes SPF, DKIM and DMARC (not a temperror
 * path). Counted, never timed.
 */
const SETTINGS = ["DNS_SERVERS", "DOMAIN_VERIFICATION", "SMTP_INBOUND_HOST", "SMTP_INBOUND_PORT", "BOUNCE_DOMAIN"];
let dns: TestDnsServer;
let key: SenderKey;
let listener: InboundServer | null;

beforeAll(async () => {
  dns = await startDnsServer();
  key = newSenderKey();
  for (const [name, records] of senderDnsRecords(key)) dns.setTxt(name, records);
  useSettings({
    DNS_SERVERS: `127.0.0.1:${dns.port}`,
    DOMAIN_VERIFICATION: "off",
    SMTP_INBOUND_HOST: "127.0.0.1",
    SMTP_INBOUND_PORT: "0",
    BOUNCE_DOMAIN: undefined,
  });
  listener = await startConfiguredInbound(env());
});
afterAll(async () => {
  await listener?.close();
  await dns.close();
  useSettings(Object.fromEntries(SETTINGS.map((name) => [name, undefined])));
});

describe("bench:inbound's setting", () => {
  it("stores every ~20 KB mail sent over pooled SMTP, with its email.received event, its reply link and passing checks", async () => {
    const { workspaceId } = await setupInboundBench(8);
    const mails = await buildBenchMails(key, 0, 8);
    for (const mail of mails) expect(mail.raw.length).toBeGreaterThan(19 * 1024);
    const client = nodemailer.createTransport({
      host: "127.0.0.1",
      port: listener!.port,
      secure: false,
      ignoreTLS: true,
      pool: true,
      maxConnections: 3,
    });
    try {
      await Promise.all(mails.map((mail) => client.sendMail({ envelope: mail.envelope, raw: mail.raw })));
    } finally {
      client.close();
    }
    // Mails 0–2 and 4–6 reply to a sent message; 3 and 7 start a conversation.
    expect(await countStored(workspaceId)).toEqual({
      stored: 8,
      received: 8,
      replied: 6,
      authPassed: 8,
      tableBytes: expect.any(Number),
      compression: expect.stringMatching(/^(lz4|pglz)$/),
    });
  });
});
