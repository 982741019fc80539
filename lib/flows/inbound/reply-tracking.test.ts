import { and, eq } from "drizzle-orm";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { inboundMessages } from "@/db/schema";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { startInboundServer, type InboundServer } from "@/lib/entry/inbound/inbound-server";
import { verifyReplyLocalPart } from "@/lib/foundation/crypto/bounce-token";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { callApi } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";

let listener: InboundServer;
let dns: TestDnsServer;

beforeAll(async () => {
  dns = await startDnsServer();
  useSettings({ DNS_SERVERS: `127.0.0.1:${dns.port}`, BOUNCE_DOMAIN: undefined });
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
  await dns.close();
  useSettings({ DNS_SERVERS: undefined, BOUNCE_DOMAIN: undefined });
});

const send = (authorization: string, extra: Record<string, unknown>) =>
  callApi("/v1/email_messages", {
    method: "POST",
    authorization,
    body: {
      from: "Shop <hello@example.com>",
      to: "ada@customer.test",
      subject: "Your order",
      bodyHtml: "<p>Hi</p>",
      ...extra,
    },
  });

const errorOf = (json: unknown) => (json as { error: { code: string; param?: string; message: string } }).error;

describe("replyTracking on a send (docs/inbound.md#reply-tracking)", () => {
  it("sets Reply-To to the message's r- address at its verified inbound domain, and a reply there is linked to it", async () => {
    const { workspace, authorization } = await createTestWorkspace();
    await addTestInboundDomain(workspace.id, "pending-rt.test", { verified: false });
    await addTestInboundDomain(workspace.id, "replies-rt.test");

    const sent = await send(authorization, { replyTracking: true, metadata: { orderId: 7 } });
    expect(sent.status).toBe(201);
    const sentId = (sent.json as { data: { id: string } }).data.id;
    const { message } = await readMessageState(sentId);
    const [local, domain] = message.replyTo!.split("@");
    expect(domain).toBe("replies-rt.test");
    expect(verifyReplyLocalPart(local)).toBe(sentId);

    await deliverMessage({ workspaceId: workspace.id, messageId: sentId }, { attempt: 0 });
    const { inbox } = await readMessageState(sentId);
    const delivered = await simpleParser(inbox[0].mime);
    expect(delivered.replyTo?.value.map((entry) => entry.address)).toEqual([message.replyTo]);

    // A reply with no threading headers at all: the address alone links it.
    const client = nodemailer.createTransport({
      host: "127.0.0.1",
      port: listener.port,
      secure: false,
      ignoreTLS: true,
    });
    await client.sendMail({
      envelope: { from: "ada@customer.test", to: [message.replyTo!] },
      from: "ada@customer.test",
      to: message.replyTo!,
      subject: "About that",
      text: "Where is it?",
    });
    client.close();
    const [reply] = await (
      await getDb()
    )
      .select()
      .from(inboundMessages)
      .where(and(eq(inboundMessages.workspaceId, workspace.id), eq(inboundMessages.originalMessageId, sentId)));
    expect(reply.threadId).toEqual(expect.any(String));
    const after = await readMessageState(sentId);
    expect(after.message.threadId).toBe(reply.threadId);
    expect(after.codes).toContain("EMAIL_MESSAGE_REPLIED");
  });

  it("falls back to BOUNCE_DOMAIN, and without either refuses the send naming replyTracking, writing nothing", async () => {
    const { authorization } = await createTestWorkspace();
    useSettings({ BOUNCE_DOMAIN: "Bounces.Example.test" });
    try {
      const sent = await send(authorization, { replyTracking: true });
      expect(sent.status).toBe(201);
      const { message } = await readMessageState((sent.json as { data: { id: string } }).data.id);
      expect(message.replyTo).toMatch(/^r-[a-z0-9]+@bounces\.example\.test$/);
    } finally {
      useSettings({ BOUNCE_DOMAIN: undefined });
    }
    const refused = await send(authorization, { replyTracking: true, metaId: "rt-refused" });
    expect(refused.status).toBe(400);
    expect(errorOf(refused.json)).toMatchObject({ param: "replyTracking" });
    expect(errorOf(refused.json).message).toMatch(/inbound domain/);
    const retried = await callApi(`/v1/email_messages?metaId=rt-refused`, { authorization });
    expect((retried.json as { data: unknown[] }).data).toEqual([]);
  });

  it("refuses replyTracking together with replyTo, naming replyTracking", async () => {
    const { authorization } = await createTestWorkspace();
    const refused = await send(authorization, { replyTracking: true, replyTo: "help@example.com" });
    expect(refused.status).toBe(400);
    expect(errorOf(refused.json)).toMatchObject({ param: "replyTracking" });
  });

  it("wins over a template's replyTo, shows as the message's replyTo on GET, and works per batch element", async () => {
    const { workspace, authorization, createTemplate } = await createTestWorkspace();
    await addTestInboundDomain(workspace.id, "batch-rt.test");
    const template = await createTemplate({ replyTo: "help@example.com" });
    const sent = await callApi("/v1/email_messages", {
      method: "POST",
      authorization,
      body: { templateId: template.id, to: "ada@customer.test", variables: { name: "Ada" }, replyTracking: true },
    });
    expect(sent.status).toBe(201);
    const sentId = (sent.json as { data: { id: string } }).data.id;
    const read = await callApi(`/v1/email_messages/${sentId}`, { authorization });
    const replyTo = (read.json as { data: { replyTo: string } }).data.replyTo;
    expect(replyTo).toMatch(/@batch-rt\.test$/);
    expect(verifyReplyLocalPart(replyTo.split("@")[0])).toBe(sentId);

    const raw = { from: "hello@example.com", to: "ada@customer.test", subject: "Hi", bodyHtml: "<p>Hi</p>" };
    const batch = await callApi("/v1/batches", {
      method: "POST",
      authorization,
      body: {
        emailMessages: [
          { ...raw, replyTracking: true },
          { ...raw, replyTo: "help@example.com" },
        ],
      },
    });
    expect(batch.status).toBe(201);
    const ids = (batch.json as { data: { emailMessageIds: string[] } }).data.emailMessageIds;
    const [tracked, plain] = await Promise.all(ids.map(async (id) => (await readMessageState(id)).message.replyTo));
    expect(verifyReplyLocalPart(tracked!.split("@")[0])).toBe(ids[0]);
    expect(plain).toBe("help@example.com");

    const refused = await callApi("/v1/batches", {
      method: "POST",
      authorization,
      body: { emailMessages: [raw, { ...raw, replyTo: "help@example.com", replyTracking: true }] },
    });
    expect(refused.status).toBe(400);
    expect(errorOf(refused.json)).toMatchObject({ param: "emailMessages[1].replyTracking" });
  });
});
