import nodemailer from "nodemailer";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { startInboundServer, type InboundServer } from "@/lib/entry/inbound/inbound-server";
import { createEndpoint } from "@/lib/flows/webhooks/manage-endpoints";
import { deliverDue, manualClock } from "@/lib/flows/webhooks/testing";
import { messageIdHeader } from "@/lib/foundation/addresses/sender-address.shared";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";

let receiver: WebhookReceiver;
let listener: InboundServer;
let dns: TestDnsServer;

beforeAll(async () => {
  dns = await startDnsServer();
  useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true", DNS_SERVERS: `127.0.0.1:${dns.port}` });
  receiver = await startWebhookReceiver();
  listener = await startInboundServer({
    port: 0,
    host: "127.0.0.1",
    bounceDomain: null,
    maxBytes: 1024 * 1024,
    maxConnections: 10,
    timeoutMs: 10_000,
  });
});
afterAll(async () => {
  await listener.close();
  await receiver.close();
  await dns.close();
  useSettings({ WEBHOOKS_ALLOW_PRIVATE: undefined, WEBHOOKS_ALLOW_HTTP: undefined, DNS_SERVERS: undefined });
});

interface Payload {
  type: string;
  data: {
    message: { id: string; metadata: Record<string, unknown> } | null;
    event: { code: string } | null;
    inboundMessage: { id: string; threadId: string; strippedText: string; originalMessageId: string | null };
  };
}

describe("inbound mail, end to end", () => {
  it("a reply over SMTP to a sent message raises signed email.received and email.replied, joins a thread, and is answered in it", async () => {
    const { workspace, authorization } = await createTestWorkspace();
    const { secret } = await createEndpoint(workspace.id, { url: receiver.url, description: "e2e" }, "key_test");
    const { route } = await addTestInboundDomain(workspace.id, "e2e-inbound.test");
    await route({ pattern: "support@e2e-inbound.test", actions: [{ type: "webhook" }] });

    const sent = await callApi("/v1/email_messages", {
      method: "POST",
      authorization,
      body: {
        from: "Shop <hello@example.com>",
        to: ["Ada <ada@customer.test>"],
        replyTo: "support@e2e-inbound.test",
        subject: "Your order 42",
        bodyHtml: "<p>It shipped.</p>",
        metadata: { orderId: 42 },
      },
    });
    expect(sent.status).toBe(201);
    const sentId = (sent.json as { data: { id: string } }).data.id;

    const client = nodemailer.createTransport({
      host: "127.0.0.1",
      port: listener.port,
      secure: false,
      ignoreTLS: true,
    });
    const parent = messageIdHeader(sentId, "hello@example.com");
    await client.sendMail({
      envelope: { from: "ada@customer.test", to: ["support@e2e-inbound.test"] },
      from: "Ada <ada@customer.test>",
      to: "support@e2e-inbound.test",
      subject: "Re: Your order 42",
      inReplyTo: parent,
      references: [parent],
      text: "Can it come on Friday?\n\nOn Sat, 28 Nov 2026 at 10:00, Shop wrote:\n> It shipped.\n",
    });
    client.close();

    await deliverDue(workspace.id, manualClock());
    const payloads = receiver.received
      .map((request) => new Webhook(secret).verify(request.body, request.headers) as Payload)
      .filter((payload) => payload.type === "email.received" || payload.type === "email.replied");
    expect(payloads.map((payload) => payload.type).sort()).toEqual(["email.received", "email.replied"]);
    for (const payload of payloads) {
      expect(payload.data.message).toMatchObject({ id: sentId, metadata: { orderId: 42 } });
      expect(payload.data.inboundMessage).toMatchObject({
        originalMessageId: sentId,
        strippedText: "Can it come on Friday?",
      });
    }
    expect(payloads.find((payload) => payload.type === "email.replied")?.data.event).toMatchObject({
      code: "EMAIL_MESSAGE_REPLIED",
    });

    const { threadId, id: inboundId } = payloads[0].data.inboundMessage;
    const thread = await callApi(`/v1/threads/${threadId}`, { authorization });
    expect(thread.status).toBe(200);
    const listed = (thread.json as { data: { messages: Array<{ id: string; direction: string }> } }).data.messages;
    expect(listed.map((entry) => entry.id)).toEqual(expect.arrayContaining([sentId, inboundId]));

    const answer = await callApi(`/v1/threads/${threadId}/reply`, {
      method: "POST",
      authorization,
      body: { from: "Shop <hello@example.com>", bodyHtml: "<p>Friday it is.</p>" },
    });
    expect(answer.status).toBe(201);
    const answerId = (answer.json as { data: { id: string } }).data.id;
    const after = await callApi(`/v1/threads/${threadId}`, { authorization });
    const ids = (after.json as { data: { messages: Array<{ id: string }> } }).data.messages.map((entry) => entry.id);
    expect(ids).toEqual(expect.arrayContaining([sentId, inboundId, answerId]));
  });
});
