import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeSmtpTransport } from "@/lib/delivery/providers/smtp/smtp-provider";
import { sendMessage } from "@/lib/sending/send-message";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startInboundServer, type InboundServer } from "./inbound-server";
import { fixtureReport, inboundClient, TEST_BOUNCE_DOMAIN } from "./testing";

/**
 * The "done when": a message sent through `smtp` to an address that later bounces shows SENT
 * then BOUNCE, and the address lands on the suppression list, so the next send to it is suppressed.
 * The relay is a real SMTP server (the sink); the bounce comes back over real SMTP to the return path
 * the relay saw in MAIL FROM.
 */
const saved = {
  DELIVERY_PROVIDER: process.env.DELIVERY_PROVIDER,
  SMTP_URL: process.env.SMTP_URL,
  BOUNCE_DOMAIN: process.env.BOUNCE_DOMAIN,
};
let sink: SmtpSink;
let inbound: InboundServer;

beforeAll(async () => {
  sink = await startSmtpSink();
  useSettings({ DELIVERY_PROVIDER: "smtp", SMTP_URL: sink.url, BOUNCE_DOMAIN: TEST_BOUNCE_DOMAIN });
  inbound = await startInboundServer({
    port: 0,
    host: "127.0.0.1",
    bounceDomain: TEST_BOUNCE_DOMAIN,
    maxBytes: 1_000_000,
    maxConnections: 10,
    timeoutMs: 10_000,
  });
});

afterAll(async () => {
  closeSmtpTransport();
  await inbound.close();
  await sink.close();
  useSettings(saved);
});

async function send(workspaceId: string, to: string) {
  const { message } = await sendMessage({
    workspaceId,
    sandbox: false,
    body: { from: "Acme <hello@example.com>", to, subject: "Your receipt", bodyHtml: "<p>Hi</p>", bodyText: "Hi" },
  });
  await deliverMessage({ workspaceId, messageId: message.id }, { attempt: 0 });
  return message.id;
}

describe("a bounce through an SMTP relay", () => {
  it("SENT, then BOUNCE from the DSN to its return path; the address is suppressed for the next send", async () => {
    const { workspace } = await createTestWorkspace();
    const first = await send(workspace.id, "Ada <ada@example.org>");
    const [relayed] = sink.messages.filter((mail) => mail.messageId === `<${first}@example.com>`);
    expect(relayed.envelope.from).toMatch(/^b-[a-z2-7]{42}@bounces\.example\.com$/);

    // The relay's MX lookup fails later: its DSN goes to the envelope sender it was given.
    const dsn = fixtureReport("postfix-hard.eml", {
      to: relayed.envelope.from,
      returnPath: relayed.envelope.from,
      recipient: "ada@example.org",
      messageId: relayed.messageId!,
    });
    const client = inboundClient(inbound.port);
    await client.sendMail({ envelope: { from: "", to: [relayed.envelope.from] }, raw: dsn });
    client.close();

    const { message, codes } = await readMessageState(first);
    expect(codes.slice(-2)).toEqual(["EMAIL_MESSAGE_SENT_PROVIDER_EVENT", "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT"]);
    expect(message.sentAt!.getTime()).toBeLessThanOrEqual(message.firstBouncedAt!.getTime());

    const second = await send(workspace.id, "ada@example.org");
    expect((await readMessageState(second)).codes).toContain("EMAIL_MESSAGE_SUPPRESSED");
    expect(sink.messages.filter((mail) => mail.messageId === `<${second}@example.com>`)).toHaveLength(0);
  });
});
