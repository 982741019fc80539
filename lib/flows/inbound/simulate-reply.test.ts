import { createServer } from "node:net";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replyLocalPart } from "@/lib/foundation/crypto/bounce-token";
import { AppError } from "@/lib/foundation/errors";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { simulateReply } from "./simulate-reply";

const BOUNCE = "bounces.simulate.test";
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
  useSettings({ SMTP_INBOUND_PORT: undefined, SMTP_INBOUND_HOST: undefined, BOUNCE_DOMAIN: undefined });
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as AppError,
  );

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("simulateReply", () => {
  it("hands the listener a reply to the message: Re:, In-Reply-To and References its Message-ID, the original quoted", async () => {
    useSettings({ SMTP_INBOUND_HOST: "0.0.0.0", SMTP_INBOUND_PORT: new URL(sink.url).port, BOUNCE_DOMAIN: BOUNCE });
    const { workspace } = await createTestWorkspace();
    const id = await insertTestMessage(workspace.id, {
      status: "SUCCEEDED",
      from: "Shop <hello@example.com>",
      to: ["Ada <ada@example.org>"],
      subject: "Your order",
      bodyText: "It shipped.\nTrack it online.",
      sentAt: new Date(),
    });
    const reply = await simulateReply(workspace.id, id);
    expect(reply.to).toBe(`${replyLocalPart(id)}@${BOUNCE}`);
    // The sink stores nothing: only the listener's own pipeline writes inbound messages.
    expect(reply.inboundMessageIds).toEqual([]);
    const [taken] = await sink.waitForMessages(1);
    expect(taken.envelope).toEqual({ from: "ada@example.org", to: [reply.to] });
    const mail = await simpleParser(taken.raw);
    expect(mail.subject).toBe("Re: Your order");
    expect(mail.inReplyTo).toBe(`<${id}@example.com>`);
    expect(mail.references).toBe(`<${id}@example.com>`);
    expect(mail.messageId).toBe(reply.messageIdHeader);
    expect(mail.from?.text).toBe('"Ada" <ada@example.org>');
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe('"Shop" <hello@example.com>');
    expect(mail.text).toMatch(
      /^Thanks, that answers my question\.\n\nOn .+, Shop <hello@example\.com> wrote:\n> It shipped\.\n> Track it online\.\n$/,
    );
  });

  it("says the listener is off, or not running, in words; another workspace's message is not found", async () => {
    const { workspace } = await createTestWorkspace();
    const other = await createTestWorkspace();
    const id = await insertTestMessage(workspace.id, { status: "SUCCEEDED" });

    useSettings({ SMTP_INBOUND_PORT: undefined, BOUNCE_DOMAIN: BOUNCE });
    const off = await failure(simulateReply(workspace.id, id));
    expect(off).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(off?.message).toContain("SMTP_INBOUND_PORT");

    const port = await closedPort();
    useSettings({ SMTP_INBOUND_HOST: "127.0.0.1", SMTP_INBOUND_PORT: String(port) });
    const down = await failure(simulateReply(workspace.id, id));
    expect(down).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(down?.message).toBe(
      `The inbound listener is not running on 127.0.0.1:${port}: start the server with SMTP_INBOUND_PORT set, or \`npm run inbound\`.`,
    );

    expect(await failure(simulateReply(other.workspace.id, id))).toMatchObject({
      code: "NOT_FOUND",
      param: "messageId",
    });
  });

  it("passes the listener's refusal on, with its reply", async () => {
    useSettings({ SMTP_INBOUND_HOST: "127.0.0.1", SMTP_INBOUND_PORT: new URL(sink.url).port, BOUNCE_DOMAIN: BOUNCE });
    sink.respond(() => ({ code: 550, message: "5.1.1 No such recipient" }));
    try {
      const { workspace } = await createTestWorkspace();
      const id = await insertTestMessage(workspace.id, { status: "SUCCEEDED" });
      const refused = await failure(simulateReply(workspace.id, id));
      expect(refused).toMatchObject({ code: "CONFLICT" });
      expect(refused?.message).toContain("550 5.1.1 No such recipient");
    } finally {
      sink.respond(undefined);
    }
  });
});
