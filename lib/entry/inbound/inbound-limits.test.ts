import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { startInboundServer, type InboundServer } from "./inbound-server";
import { RatePerIp } from "./rate-per-ip";
import { inboundClient } from "./testing";

/**
 * The MX's refusals at RCPT TO and MAIL FROM over real SMTP (nodemailer → the listener): nothing is relayed, an
 * address no route takes is unknown, a route's reject action answers in its own words, and the limits hold.
 */
const DOMAIN = "in.limits.example.com";
let inbound: InboundServer;

beforeAll(async () => {
  const ws = await createTestWorkspace();
  const domain = await addTestInboundDomain(ws.workspace.id, DOMAIN);
  await domain.route({ pattern: `support@${DOMAIN}`, actions: [{ type: "webhook" }] });
  await domain.route({ pattern: `sales@${DOMAIN}`, actions: [{ type: "webhook" }] });
  await domain.route({ pattern: `billing@${DOMAIN}`, actions: [{ type: "webhook" }] });
  await domain.route({
    pattern: `noreply@${DOMAIN}`,
    actions: [{ type: "reject", code: 550, message: "This address takes no mail." }],
  });
  inbound = await startInboundServer({
    port: 0,
    host: "127.0.0.1",
    bounceDomain: null,
    maxBytes: 100_000,
    maxRecipients: 2,
    ratePerIpPerMinute: 1_000,
    maxConnections: 20,
    timeoutMs: 10_000,
  });
});

afterAll(async () => inbound.close());

const RAW = `From: someone@mail.example.org\r\nTo: support@${DOMAIN}\r\nSubject: Hi\r\n\r\nHello.\r\n`;

async function refusal(port: number, to: string[], raw = RAW): Promise<{ responseCode?: number; response?: string }> {
  const client = inboundClient(port);
  try {
    const info = await client.sendMail({ envelope: { from: "someone@mail.example.org", to }, raw });
    throw new Error(`expected a refusal, got ${info.response}`);
  } catch (error) {
    return error as { responseCode?: number; response?: string };
  } finally {
    client.close();
  }
}

describe("what the MX refuses", () => {
  it("refuses a relay attempt (5.7.1), an unknown address of ours (5.1.1) and a rejecting route in its words", async () => {
    expect(await refusal(inbound.port, ["victim@gmail.com"])).toMatchObject({
      responseCode: 550,
      response: expect.stringContaining("5.7.1 <victim@gmail.com>: Relay access denied"),
    });
    expect(await refusal(inbound.port, [`nobody@${DOMAIN}`])).toMatchObject({
      responseCode: 550,
      response: expect.stringContaining(`5.1.1 <nobody@${DOMAIN}>`),
    });
    expect(await refusal(inbound.port, [`noreply@${DOMAIN}`])).toMatchObject({
      responseCode: 550,
      response: expect.stringContaining("5.7.1 This address takes no mail."),
    });
  });

  it("answers 452 past the recipients per message, and 552 past the size limit", async () => {
    const client = inboundClient(inbound.port);
    try {
      const to = [`support@${DOMAIN}`, `sales@${DOMAIN}`, `billing@${DOMAIN}`];
      const sent = await client
        .sendMail({ envelope: { from: "someone@mail.example.org", to }, raw: RAW })
        .catch((error) => error);
      // The third RCPT TO is refused with 452; nodemailer reports it and delivers to the two taken.
      expect(sent.rejected).toEqual([`billing@${DOMAIN}`]);
      expect(sent.rejectedErrors[0]).toMatchObject({ responseCode: 452, response: expect.stringContaining("4.5.3") });
    } finally {
      client.close();
    }
    const big = RAW + "x".repeat(120_000) + "\r\n";
    expect(await refusal(inbound.port, [`support@${DOMAIN}`], big)).toMatchObject({ responseCode: 552 });
  });

  it("answers 450 4.7.1 at MAIL FROM once an address has sent its mails of the minute", async () => {
    const strict = await startInboundServer({
      port: 0,
      host: "127.0.0.1",
      bounceDomain: null,
      maxBytes: 100_000,
      ratePerIpPerMinute: 1,
      maxConnections: 5,
      timeoutMs: 10_000,
    });
    try {
      await refusal(strict.port, ["victim@gmail.com"]); // the first mail of the minute (refused at RCPT, counted)
      expect(await refusal(strict.port, [`support@${DOMAIN}`])).toMatchObject({
        responseCode: 450,
        response: expect.stringContaining("4.7.1"),
      });
    } finally {
      await strict.close();
    }
  });
});

describe("RatePerIp", () => {
  it("counts per address within a minute and starts afresh the next one", () => {
    let now = 60_000 * 10;
    const rate = new RatePerIp(2, () => now);
    expect([rate.take("a"), rate.take("a"), rate.take("a"), rate.take("b")]).toEqual([true, true, false, true]);
    now += 60_000;
    expect(rate.take("a")).toBe(true);
  });
});
