import http from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@usewaypoint/client";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/email_messages/handlers";
import { closeSmtpTransport } from "@/lib/delivery/providers/smtp/smtp-provider";
import { forgetDkimKeys } from "@/lib/delivery/mime/dkim-keys";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { waitFor } from "@/lib/testing/wait-for";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import type { SubmissionListener } from "./start-submission-server";
import { plainAuth, RawSmtp, smtpClient, startTestListener } from "./testing";

/**
 * Issue #18's "done when": the same message sent through the three doors a team moving to us would
 * use — nodemailer over SMTP submission, SMTP spoken by hand as `swaks` does, and the real
 * `@usewaypoint/client` over HTTP — is delivered by the real workers to a real SMTP server and ends
 * with the same timeline, status, sender, subject, recipients and bodies.
 */
const saved = {
  DELIVERY_PROVIDER: process.env.DELIVERY_PROVIDER,
  SMTP_URL: process.env.SMTP_URL,
  MARKETBASE_API_HOST: process.env.MARKETBASE_API_HOST,
};
const SUBJECT = "Your receipt, Ada";
const TEXT = "Hello Ada,\nyour receipt is attached to nothing: this is a test.";
const HTML = "<p>Hello Ada,<br>your receipt is attached to nothing: this is a test.</p>";

let sink: SmtpSink;
let listener: SubmissionListener;
let api: http.Server;
let ws: Awaited<ReturnType<typeof createTestWorkspace>>;

/** The real POST /v1/email_messages route handler behind a plain node:http server, as Next.js would call it. */
async function serveApi(): Promise<http.Server> {
  const server = http.createServer(async (incoming, outgoing) => {
    if (incoming.method !== "POST" || incoming.url !== "/v1/email_messages") return void outgoing.writeHead(404).end();
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers))
      if (typeof value === "string") headers.set(name, value);
    const request = new Request(`http://127.0.0.1${incoming.url}`, {
      method: "POST",
      headers,
      body: Buffer.concat(chunks),
    });
    const response = await POST(request, { params: Promise.resolve({}) });
    outgoing
      .writeHead(response.status, Object.fromEntries(response.headers))
      .end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

beforeAll(async () => {
  sink = await startSmtpSink();
  useSettings({ DELIVERY_PROVIDER: "smtp", SMTP_URL: sink.url });
  listener = await startTestListener();
  api = await serveApi();
  process.env.MARKETBASE_API_HOST = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  ws = await createTestWorkspace();
});

afterAll(async () => {
  await stopWorkers();
  closeSmtpTransport();
  await Promise.all([sink.close(), listener.close(), new Promise((resolve) => api.close(resolve))]);
  useSettings(saved);
  forgetDkimKeys();
});

const messageIdOf = (reply: string) => {
  const id = /^250 2\.0\.0 OK (em_[0-9A-Za-z]{16})/.exec(reply)?.[1];
  expect(id, reply).toBeDefined();
  return id!;
};

async function viaNodemailer(): Promise<string> {
  const info = await smtpClient(listener.port!, { user: ws.key.id, pass: ws.key.password }).sendMail({
    from: "Acme <hello@example.com>",
    to: "Ada <ada@example.org>",
    cc: "bob@example.org",
    subject: SUBJECT,
    text: TEXT,
    html: HTML,
  });
  return messageIdOf(info.response);
}

/** The conversation `swaks --auth PLAIN --data …` has: EHLO, AUTH, the envelope, a hand-written multipart DATA. */
async function viaRawSmtp(): Promise<string> {
  const smtp = await RawSmtp.connect(listener.port!);
  try {
    expect(await smtp.reply()).toMatch(/^220 /);
    expect(await smtp.command("EHLO swaks.test")).toMatch(/^250/);
    expect(await smtp.command(`AUTH PLAIN ${plainAuth(ws.key.id, ws.key.password)}`)).toMatch(/^235/);
    expect(await smtp.command("MAIL FROM:<hello@example.com>")).toMatch(/^250/);
    expect(await smtp.command("RCPT TO:<ada@example.org>")).toMatch(/^250/);
    expect(await smtp.command("RCPT TO:<bob@example.org>")).toMatch(/^250/);
    expect(await smtp.command("DATA")).toMatch(/^354/);
    const data = [
      "From: Acme <hello@example.com>",
      "To: Ada <ada@example.org>",
      "Cc: bob@example.org",
      `Subject: ${SUBJECT}`,
      "MIME-Version: 1.0",
      'Content-Type: multipart/alternative; boundary="swaks-boundary"',
      "",
      "--swaks-boundary",
      "Content-Type: text/plain; charset=utf-8",
      "",
      TEXT.replace(/\n/g, "\r\n"),
      "--swaks-boundary",
      "Content-Type: text/html; charset=utf-8",
      "",
      HTML,
      "--swaks-boundary--",
      ".",
    ].join("\r\n");
    const id = messageIdOf(await smtp.command(data));
    expect(await smtp.command("QUIT")).toMatch(/^221/);
    return id;
  } finally {
    smtp.destroy();
  }
}

async function viaWaypointClient(): Promise<string> {
  const client = createClient(ws.key.id, ws.key.password);
  const sent = await client.emailMessages.createRaw({
    from: "Acme <hello@example.com>",
    to: "Ada <ada@example.org>",
    cc: "bob@example.org",
    subject: SUBJECT,
    bodyHtml: HTML,
    bodyText: TEXT,
  });
  expect(sent.status).toBe(201);
  return (sent.body as { data: { id: string } }).data.id;
}

async function settled(messageId: string) {
  return waitFor(
    async () => {
      const state = await readMessageState(messageId);
      return state.message.status !== "PENDING" && state;
    },
    { what: `${messageId} to leave PENDING`, timeout: 30_000, every: 100 },
  );
}

/** What the timeline and the row say, without what differs by nature between two messages (ids, times). */
async function outcome(messageId: string) {
  const { message, events } = await settled(messageId);
  const [delivered] = sink.messages.filter((mail) => mail.messageId === `<${messageId}@example.com>`);
  const parsed = await simpleParser(delivered.raw);
  return {
    codes: events.map((event) => event.code),
    status: message.status,
    from: message.from,
    to: message.to,
    cc: message.cc,
    bcc: message.bcc,
    subject: message.subject,
    bodyText: message.bodyText.trim(),
    bodyHtml: message.bodyHtml.trim(),
    delivered: {
      count: sink.messages.filter((mail) => mail.messageId === delivered.messageId).length,
      envelope: delivered.envelope,
      from: parsed.from?.text,
      to: [parsed.to].flat().map((address) => address?.text),
      cc: [parsed.cc].flat().map((address) => address?.text),
      subject: parsed.subject,
      text: parsed.text?.trim(),
    },
  };
}

describe("three doors, one timeline", () => {
  it(
    "nodemailer, raw SMTP and @usewaypoint/client each send, and the messages show the same timeline",
    { timeout: 60_000 },
    async () => {
      const ids = {
        nodemailer: await viaNodemailer(),
        rawSmtp: await viaRawSmtp(),
        waypointClient: await viaWaypointClient(),
      };
      expect(new Set(Object.values(ids)).size).toBe(3);
      await startWorkers({ pollingIntervalSeconds: 0.5 });
      const [nodemailerSend, rawSend, clientSend] = await Promise.all(Object.values(ids).map((id) => outcome(id)));

      expect(nodemailerSend).toMatchObject({
        codes: ["EMAIL_MESSAGE_CREATED", "EMAIL_MESSAGE_RENDERED", "EMAIL_MESSAGE_SENT_PROVIDER_EVENT"],
        status: "SUCCEEDED",
        subject: SUBJECT,
        delivered: {
          count: 1,
          envelope: { from: "hello@example.com", to: ["ada@example.org", "bob@example.org"] },
          subject: SUBJECT,
          text: TEXT,
        },
      });
      expect(rawSend).toEqual(nodemailerSend);
      expect(clientSend).toEqual(nodemailerSend);

      // The API's source stays Waypoint's (API for all three); the door each came in by is recorded beside it.
      const doors = await Promise.all(
        Object.values(ids).map(async (id) => {
          const { message, events } = await readMessageState(id);
          return { source: message.source, submittedVia: message.submittedVia, created: events[0].message };
        }),
      );
      const smtp = {
        source: "API",
        submittedVia: "smtp",
        created: expect.stringMatching(/^Message created from API \(submitted over SMTP\) for 2 recipients/),
      };
      expect(doors).toEqual([
        smtp,
        smtp,
        {
          source: "API",
          submittedVia: "api",
          created: expect.stringMatching(/^Message created from API for 2 recipients/),
        },
      ]);
    },
  );
});
