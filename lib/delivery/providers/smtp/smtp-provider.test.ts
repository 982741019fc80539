import net from "node:net";
import { dkimVerify } from "mailauth";
import { simpleParser, type AddressObject } from "mailparser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { sendMessage } from "@/lib/sending/send-message";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { startSmtpSink, type SinkMessage, type SmtpSink } from "@/lib/testing/smtp-sink";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { dkimTxtRecord, forgetDkimKeys } from "@/lib/delivery/mime/dkim-keys";
import { getDeliveryProvider } from "@/lib/delivery/registry";
import { closeSmtpTransport, smtpFailure } from "./smtp-provider";
import { useSettings } from "@/lib/testing/settings";
import { waitFor } from "@/lib/testing/wait-for";
import { bounceAddress, verifyBounceLocalPart } from "@/lib/foundation/crypto/bounce-token";

/** docs/architecture.md#rules-that-carry-weight, rule 6: the smtp provider against a real SMTP server (smtp-server) on loopback. */
const SENT = "EMAIL_MESSAGE_SENT_PROVIDER_EVENT";
const saved = { DELIVERY_PROVIDER: process.env.DELIVERY_PROVIDER, SMTP_URL: process.env.SMTP_URL };
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  useSettings({ DELIVERY_PROVIDER: "smtp", SMTP_URL: sink.url });
});

afterEach(() => {
  sink.respond(undefined);
});

afterAll(async () => {
  await stopWorkers();
  closeSmtpTransport();
  await sink.close();
  useSettings(saved);
  forgetDkimKeys();
});

const state = readMessageState;

const received = (header: string): SinkMessage[] => sink.messages.filter((message) => message.messageId === header);
const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((entry) => entry.value.map((value) => value.address));

describe("the smtp provider", () => {
  it("delivers a message accepted by sendMessage through the real workers to the SMTP server", async () => {
    const { workspace } = await createTestWorkspace();
    await startWorkers({ pollingIntervalSeconds: 0.5 });
    const { message } = await sendMessage({
      workspaceId: workspace.id,
      sandbox: false,
      body: {
        from: "Acme <hello@example.com>",
        to: "Ada <ada@example.org>",
        cc: "cc@example.org",
        bcc: "bcc@example.org",
        replyTo: "support@example.com",
        subject: "Your receipt",
        bodyHtml: "<p>Hi Ada</p>",
        bodyText: "Hi Ada",
        headers: { references: "<thread-1@example.com>" },
        attachments: [
          {
            name: "receipt.txt",
            contentType: "text/plain",
            contentBlob: Buffer.from("Total: 42 EUR").toString("base64"),
          },
        ],
      },
    });
    const header = `<${message.id}@example.com>`;
    await waitFor(async () => (await state(message.id)).message.status === "SUCCEEDED", {
      what: `message ${message.id} to be SUCCEEDED`,
    });
    await stopWorkers();

    expect(received(header)).toHaveLength(1);
    const [mail] = received(header);
    expect(mail.envelope).toEqual({
      from: "hello@example.com",
      to: ["ada@example.org", "cc@example.org", "bcc@example.org"],
    });
    const parsed = await simpleParser(mail.raw);
    expect(parsed.messageId).toBe(header);
    expect(parsed.from?.value).toEqual([{ name: "Acme", address: "hello@example.com" }]);
    expect(addresses(parsed.to)).toEqual(["ada@example.org"]);
    expect(addresses(parsed.cc)).toEqual(["cc@example.org"]);
    expect(addresses(parsed.replyTo)).toEqual(["support@example.com"]);
    expect(parsed.references).toBe("<thread-1@example.com>");
    expect(parsed.headers.has("bcc")).toBe(false);
    expect(mail.raw.toString("utf8")).not.toContain("bcc@example.org");
    expect(parsed.subject).toBe("Your receipt");
    expect(parsed.text?.trim()).toBe("Hi Ada");
    expect(parsed.html).toContain("Hi Ada");
    expect(parsed.attachments.map((part) => [part.filename, part.contentType, part.content.toString("utf8")])).toEqual([
      ["receipt.txt", "text/plain", "Total: 42 EUR"],
    ]);
    expect(parsed.headers.has("dkim-signature")).toBe(true);

    const { message: row, events, codes } = await state(message.id);
    expect(codes.filter((code) => code === SENT)).toHaveLength(1);
    expect(events.find((event) => event.code === SENT)?.message).toBe("Sent through the SMTP relay 127.0.0.1.");
    expect(row).toMatchObject({ status: "SUCCEEDED", referenceId: header, deliveredAt: null });
    expect(row.sentAt).not.toBeNull();
  });

  it("signs with the sending domain's own DKIM key, which verifies against its published record", async () => {
    const { workspace, domain } = await createTestWorkspace();
    // Another workspace with the same domain name has a key of its own: it must not be the one used.
    const other = await createTestWorkspace();
    const messageId = await insertTestMessage(workspace.id, { from: "Acme <hello@example.com>" });
    await deliverMessage({ workspaceId: workspace.id, messageId }, { attempt: 0 });
    const [mail] = received(`<${messageId}@example.com>`);

    const verify = (publicKey: string) =>
      dkimVerify(mail.raw, {
        resolver: async (name: string, type: string) => {
          if (type === "TXT" && name === "postwerk._domainkey.example.com") return [[dkimTxtRecord(publicKey)]];
          throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
        },
      });
    const ours = await verify(domain.dkimPublicKey);
    expect(ours.results).toHaveLength(1);
    expect(ours.results[0]).toMatchObject({
      signingDomain: "example.com",
      selector: "postwerk",
      status: { result: "pass" },
    });
    const theirs = await verify(other.domain.dkimPublicKey);
    expect(theirs.results[0].status.result).not.toBe("pass");
  });

  it("with BOUNCE_DOMAIN, MAIL FROM is the message's signed return path and the From header stays the sender's", async () => {
    useSettings({ BOUNCE_DOMAIN: "Bounces.Example.com" });
    try {
      const { workspace } = await createTestWorkspace();
      const messageId = await insertTestMessage(workspace.id, { from: "Acme <hello@example.com>" });
      await deliverMessage({ workspaceId: workspace.id, messageId }, { attempt: 0 });
      const [mail] = received(`<${messageId}@example.com>`);
      expect(mail.envelope.from).toBe(bounceAddress(messageId, "bounces.example.com"));
      expect(mail.envelope.from).toMatch(/^b-[a-z2-7]{42}@bounces\.example\.com$/);
      expect(verifyBounceLocalPart(mail.envelope.from.split("@")[0])).toBe(messageId);
      expect(mail.envelope.to).toEqual(["ada@example.org"]);
      const parsed = await simpleParser(mail.raw);
      expect(parsed.from?.value).toEqual([{ name: "Acme", address: "hello@example.com" }]);
      expect(parsed.headers.has("return-path")).toBe(false);
    } finally {
      useSettings({ BOUNCE_DOMAIN: undefined });
    }
  });

  it("retries while the server answers 421, then delivers once it accepts", async () => {
    const { workspace } = await createTestWorkspace();
    const messageId = await insertTestMessage(workspace.id);
    const header = `<${messageId}@example.com>`;
    sink.respond((mail) =>
      mail.messageId === header && mail.attempt <= 2 ? { code: 421, message: "4.3.2 Try again later" } : undefined,
    );
    const job = { workspaceId: workspace.id, messageId };

    for (const attempt of [0, 1]) {
      await expect(deliverMessage(job, { attempt })).rejects.toThrow(/421 4\.3\.2 Try again later/);
      const { message, events } = await state(messageId);
      expect(message.status).toBe("PENDING");
      expect(events.at(-1)?.message).toBe(
        `Attempt ${attempt + 1} through the SMTP relay 127.0.0.1 failed: 421 4.3.2 Try again later. It is tried again later.`,
      );
    }
    await deliverMessage(job, { attempt: 2 });
    const { message, codes } = await state(messageId);
    expect(message.status).toBe("SUCCEEDED");
    expect(codes).toEqual(["EMAIL_MESSAGE_ATTEMPT_FAILED", "EMAIL_MESSAGE_ATTEMPT_FAILED", SENT]);
    expect(sink.attempts.get(header)).toBe(3);
    expect(received(header)).toHaveLength(1);
  });

  it("fails the message with the server's diagnostic on a 550", async () => {
    const { workspace } = await createTestWorkspace();
    const messageId = await insertTestMessage(workspace.id);
    sink.respond(() => ({ code: 550, message: "5.1.1 mailbox unavailable" }));
    await deliverMessage({ workspaceId: workspace.id, messageId }, { attempt: 0 });
    const { message, events } = await state(messageId);
    expect(message.status).toBe("FAILED");
    expect(message.erroredAt).not.toBeNull();
    expect(message.sentAt).toBeNull();
    expect(events.map((event) => event.code)).toEqual(["EMAIL_MESSAGE_PROVIDER_ERROR"]);
    expect(events[0].message).toBe("The SMTP relay 127.0.0.1 rejected the message: 550 5.1.1 mailbox unavailable");
  });

  it("hands each message to the server once when its delivery runs twice", async () => {
    const { workspace } = await createTestWorkspace();
    const messageId = await insertTestMessage(workspace.id);
    const job = { workspaceId: workspace.id, messageId };
    await deliverMessage(job, { attempt: 0 });
    await deliverMessage(job, { attempt: 1 });
    const header = `<${messageId}@example.com>`;
    expect(sink.attempts.get(header)).toBe(1);
    expect(received(header)).toHaveLength(1);
    expect((await state(messageId)).codes).toEqual([SENT]);
  });

  it("retries when the server cannot be reached", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    useSettings({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const { workspace } = await createTestWorkspace();
      const messageId = await insertTestMessage(workspace.id);
      await expect(deliverMessage({ workspaceId: workspace.id, messageId }, { attempt: 0 })).rejects.toThrow(
        /ECONNREFUSED|ECONNECTION|ESOCKET/,
      );
      expect((await state(messageId)).message.status).toBe("PENDING");
    } finally {
      useSettings({ SMTP_URL: sink.url });
    }
  });
});

describe("smtp configuration and error mapping", () => {
  it("refuses to start without a usable SMTP_URL", () => {
    try {
      useSettings({ SMTP_URL: undefined });
      expect(() => getDeliveryProvider()).toThrow(/DELIVERY_PROVIDER=smtp needs SMTP_URL/);
      useSettings({ SMTP_URL: "https://smtp.example.com" });
      expect(() => getDeliveryProvider()).toThrow(/must start with smtp:\/\/ or smtps:\/\//);
    } finally {
      useSettings({ SMTP_URL: sink.url });
    }
    expect(getDeliveryProvider()).toMatchObject({ name: "smtp", transactional: false });
  });

  it("maps SMTP answers: 5xx permanent (503 aside), 4xx and connection trouble transient", () => {
    const reply = (responseCode: number, response: string) =>
      Object.assign(new Error("x"), { code: "EMESSAGE", responseCode, response });
    expect(smtpFailure(reply(550, "550 5.1.1 mailbox unavailable"))).toEqual({
      outcome: "failed",
      diagnostic: "550 5.1.1 mailbox unavailable",
    });
    expect(smtpFailure(reply(452, "452 4.2.2 mailbox full"))).toEqual({
      outcome: "retry",
      diagnostic: "452 4.2.2 mailbox full",
    });
    expect(smtpFailure(reply(503, "503 bad sequence"))).toMatchObject({ outcome: "retry" });
    expect(smtpFailure(Object.assign(new Error("Greeting never received"), { code: "ETIMEDOUT" }))).toEqual({
      outcome: "retry",
      diagnostic: "Greeting never received (ETIMEDOUT)",
    });
    expect(smtpFailure(Object.assign(new Error("Invalid recipient"), { code: "EENVELOPE" }))).toMatchObject({
      outcome: "failed",
    });
  });
});
