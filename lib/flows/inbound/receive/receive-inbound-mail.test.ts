import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessageLogs, inboundMessageRaw, inboundMessages, webhookEvents } from "@/db/schema";
import { getAttachmentStorage } from "@/lib/domain/attachments/storage";
import { findInboundRecipient, type InboundRecipient } from "@/lib/domain/inbound/find-recipient";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { buildPayloadObjects } from "@/lib/flows/webhooks/build-payloads";
import { newId } from "@/lib/foundation/ids";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { InboundRefusal, receiveInboundMail } from "./receive-inbound-mail";

let dns: TestDnsServer;
beforeAll(async () => {
  // Every lookup of the checks goes to this server: fast NXDOMAIN, and the DMARC records the tests set.
  dns = await startDnsServer();
  useSettings({ DNS_SERVERS: `127.0.0.1:${dns.port}` });
});
afterAll(async () => {
  useSettings({ DNS_SERVERS: undefined });
  await dns.close();
});

/** A plain mail as a client writes it; `extra` header lines go first. */
function rawMail(fields: {
  from: string;
  to: string;
  subject: string;
  body: string;
  messageId?: string;
  extra?: string[];
}) {
  const lines = [
    ...(fields.extra ?? []),
    `From: Ada <${fields.from}>`,
    `To: ${fields.to}`,
    `Subject: ${fields.subject}`,
    `Date: Sat, 28 Nov 2026 10:00:00 +0000`,
    ...(fields.messageId ? [`Message-ID: ${fields.messageId}`] : []),
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    fields.body,
  ];
  return Buffer.from(lines.join("\r\n"));
}

async function recipient(address: string): Promise<InboundRecipient> {
  const lookup = await findInboundRecipient(await getDb(), address);
  if (!lookup.ok) throw new Error(`${address}: ${lookup.code} ${lookup.message}`);
  return lookup.recipient;
}

const envelopeFor = (recipients: InboundRecipient[], mailFrom = "ada@sender.test") => ({
  mailFrom,
  ip: "192.0.2.10",
  helo: "mail.sender.test",
  recipients,
});

async function rowsOf(workspaceId: string) {
  const db = await getDb();
  return db.select().from(inboundMessages).where(eq(inboundMessages.workspaceId, workspaceId));
}

describe("receiveInboundMail", () => {
  it("stores the mail, its raw bytes and attachments, and raises email.received for a webhook route", async () => {
    const { workspace } = await createTestWorkspace();
    const { route } = await addTestInboundDomain(workspace.id, "in-store.test");
    await route({ pattern: "support@in-store.test", actions: [{ type: "webhook" }] });
    const attachment = Buffer.from("a,b\n1,2\n");
    const boundary = "b1";
    const raw = Buffer.from(
      [
        "From: Ada <ada@sender.test>",
        "To: support@in-store.test",
        "Subject: Numbers",
        "Message-ID: <store-1@sender.test>",
        "MIME-Version: 1.0",
        `Content-Type: multipart/mixed; boundary="${boundary}"`,
        "",
        `--${boundary}`,
        "Content-Type: text/plain; charset=utf-8",
        "",
        "Here they are.",
        `--${boundary}`,
        'Content-Type: text/csv; name="n.csv"',
        'Content-Disposition: attachment; filename="n.csv"',
        "Content-Transfer-Encoding: base64",
        "",
        attachment.toString("base64"),
        `--${boundary}--`,
        "",
      ].join("\r\n"),
    );
    const outcome = await receiveInboundMail(raw, envelopeFor([await recipient("support@in-store.test")]));
    expect(outcome).toEqual({ stored: [expect.stringMatching(/^inm_/)], duplicates: 0, quarantined: 0 });
    const [row] = await rowsOf(workspace.id);
    expect(row).toMatchObject({ status: "RECEIVED", subject: "Numbers", fromAddress: "ada@sender.test" });
    expect(row.threadId).toMatch(/^thr_/);
    expect(row.attachments).toMatchObject([{ filename: "n.csv", contentType: "text/csv", size: attachment.length }]);
    const stored = await (await getAttachmentStorage()).read(row.attachments[0].storageKey);
    expect(stored?.equals(attachment)).toBe(true);
    const db = await getDb();
    const [kept] = await db.select().from(inboundMessageRaw).where(eq(inboundMessageRaw.inboundMessageId, row.id));
    expect(Buffer.from(kept.raw).equals(raw)).toBe(true);
    const events = await db.select().from(webhookEvents).where(eq(webhookEvents.inboundMessageId, row.id));
    expect(events.map((event) => event.type)).toEqual(["email.received"]);
    const payload = (await buildPayloadObjects(db, events)).get(events[0].id) as { data: Record<string, unknown> };
    expect(payload.data).toMatchObject({
      message: null,
      event: null,
      inboundMessage: { id: row.id, subject: "Numbers" },
    });
  });

  it("stores the same Message-ID from the same sender once", async () => {
    const { workspace } = await createTestWorkspace();
    const { route } = await addTestInboundDomain(workspace.id, "in-dupe.test");
    await route({ pattern: "*@in-dupe.test", actions: [{ type: "webhook" }] });
    const raw = rawMail({
      from: "ada@sender.test",
      to: "help@in-dupe.test",
      subject: "Twice",
      body: "Hi",
      messageId: "<dupe-1@sender.test>",
    });
    const envelope = envelopeFor([await recipient("help@in-dupe.test")]);
    const first = await receiveInboundMail(raw, envelope);
    const second = await receiveInboundMail(raw, envelope);
    expect(first.stored).toHaveLength(1);
    expect(second).toEqual({ stored: [], duplicates: 1, quarantined: 0 });
    expect(await rowsOf(workspace.id)).toHaveLength(1);
    const db = await getDb();
    const events = await db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, workspace.id));
    expect(events.filter((event) => event.type === "email.received")).toHaveLength(1);
  });

  it("quarantines a mail failing DMARC for a quarantine route (no webhook), and refuses it with 550 for a reject route", async () => {
    dns.setTxt("_dmarc.spoofed.test", ["v=DMARC1; p=reject"]);
    dns.setTxt("spoofed.test", ["v=spf1 -all"]);
    const { workspace } = await createTestWorkspace();
    const { route } = await addTestInboundDomain(workspace.id, "in-dmarc.test");
    await route({ pattern: "quarantine@in-dmarc.test", actions: [{ type: "webhook" }], dmarcFailAction: "quarantine" });
    await route({ pattern: "reject@in-dmarc.test", actions: [{ type: "webhook" }], dmarcFailAction: "reject" });
    const mail = (to: string) =>
      rawMail({ from: "ceo@spoofed.test", to, subject: "Wire money", body: "Now.", messageId: `<${to}@spoofed.test>` });
    const quarantined = await receiveInboundMail(
      mail("quarantine@in-dmarc.test"),
      envelopeFor([await recipient("quarantine@in-dmarc.test")], "ceo@spoofed.test"),
    );
    expect(quarantined).toMatchObject({ stored: [expect.any(String)], quarantined: 1 });
    const [row] = await rowsOf(workspace.id);
    expect(row).toMatchObject({
      status: "QUARANTINED",
      dmarc: "fail",
      quarantineReason: expect.stringContaining("DMARC"),
    });
    const db = await getDb();
    expect(await db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, workspace.id))).toEqual([]);

    const refused = await receiveInboundMail(
      mail("reject@in-dmarc.test"),
      envelopeFor([await recipient("reject@in-dmarc.test")], "ceo@spoofed.test"),
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InboundRefusal);
    expect(refused).toMatchObject({ code: 550, message: expect.stringMatching(/^5\.7\.1 .*DMARC/) });
    expect(await rowsOf(workspace.id)).toHaveLength(1);
  });

  it("links a reply to our Message-ID: REPLIED on the original, and email.replied naming the inbound mail", async () => {
    const { workspace } = await createTestWorkspace();
    const { route } = await addTestInboundDomain(workspace.id, "in-reply.test");
    await route({ pattern: "support@in-reply.test", actions: [] });
    const sent = await insertTestMessage(workspace.id, { status: "SUCCEEDED", metadata: { orderId: 7 } });
    const raw = rawMail({
      from: "ada@sender.test",
      to: "support@in-reply.test",
      subject: "Re: Hello",
      body: "Thanks!\r\n\r\nOn Sat, 28 Nov 2026, Shop wrote:\r\n> Hello",
      messageId: `<${newId("message")}@sender.test>`,
      extra: [`In-Reply-To: <${sent}@example.com>`],
    });
    const { stored } = await receiveInboundMail(raw, envelopeFor([await recipient("support@in-reply.test")]));
    const [row] = await rowsOf(workspace.id);
    expect(row).toMatchObject({ id: stored[0], originalMessageId: sent, strippedText: "Thanks!" });
    const db = await getDb();
    const logs = await db
      .select()
      .from(emailMessageLogs)
      .where(and(eq(emailMessageLogs.emailMessageId, sent), eq(emailMessageLogs.code, "EMAIL_MESSAGE_REPLIED")));
    expect(logs).toHaveLength(1);
    const events = await db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, workspace.id));
    // No webhook action: no email.received; the REPLIED event's webhook is the timeline's.
    expect(events.map((event) => [event.type, event.inboundMessageId])).toEqual([["email.replied", row.id]]);
    const payload = (await buildPayloadObjects(db, events)).get(events[0].id) as {
      data: Record<string, unknown>;
    };
    expect(payload.data.message).toMatchObject({ id: sent, metadata: { orderId: 7 } });
    expect(payload.data.event).toMatchObject({ code: "EMAIL_MESSAGE_REPLIED" });
    expect(payload.data.inboundMessage).toMatchObject({
      id: row.id,
      strippedText: "Thanks!",
      originalMessage: { id: sent, metadata: { orderId: 7 } },
    });
  });
});
