import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, getDbHandle, installDbHandle } from "@/db/client";
import * as schema from "@/db/schema";
import { suppressions, workspaces } from "@/db/schema";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { startInboundServer, type InboundServer } from "./inbound-server";
import { fixtureReport, inboundClient, insertSentMessage, TEST_BOUNCE_DOMAIN } from "./testing";

/**
 * The inbound listener over real SMTP (nodemailer → smtp-server on loopback), against the real
 * database: RFC 3464 and RFC 5965 examples and real-world shapes (Postfix, Exim, Gmail, Exchange,
 * Yahoo) from testdata/fixtures, each asserted on the message's timeline, timestamps, suppression
 * list and the workspace's automatic pause.
 */
const BOUNCE = "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT";
const DELAYED = "EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT";
const COMPLAINT = "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT";
const UNCLASSIFIED = "EMAIL_MESSAGE_UNCLASSIFIED_PROVIDER_EVENT";
const saved = { AUTO_PAUSE_MIN_MESSAGES: process.env.AUTO_PAUSE_MIN_MESSAGES };
let inbound: InboundServer;
const MAX_BYTES = 200_000;

beforeAll(async () => {
  // One sent message is enough for the pause check to judge: a hard bounce pauses the workspace.
  useSettings({ AUTO_PAUSE_MIN_MESSAGES: "1" });
  inbound = await startInboundServer({
    port: 0,
    host: "127.0.0.1",
    bounceDomain: TEST_BOUNCE_DOMAIN,
    maxBytes: MAX_BYTES,
    maxConnections: 20,
    timeoutMs: 10_000,
  });
});

afterAll(async () => {
  await inbound.close();
  useSettings(saved);
});

/** Delivers a raw report to one recipient; resolves with the server's final reply, rejects with its refusal. */
async function deliver(raw: string, rcpt: string): Promise<string> {
  const client = inboundClient(inbound.port);
  try {
    const info = await client.sendMail({ envelope: { from: "", to: [rcpt] }, raw });
    return info.response;
  } finally {
    client.close();
  }
}

async function refusal(raw: string, rcpt: string): Promise<{ responseCode?: number; response?: string }> {
  return deliver(raw, rcpt).then(
    (response) => {
      throw new Error(`expected a refusal, got ${response}`);
    },
    (error: { responseCode?: number; response?: string }) => error,
  );
}

/** A workspace with one sent message, and the named fixture filled in for it and sent to its return path. */
async function scenario(fixture: string, options: { to?: string[]; rcpt?: "token" | "fbl" } = {}) {
  const { workspace } = await createTestWorkspace();
  const sent = await insertSentMessage(workspace.id, options.to);
  const rcpt = options.rcpt === "fbl" ? `fbl@${TEST_BOUNCE_DOMAIN}` : sent.returnPath;
  const raw = fixtureReport(fixture, {
    to: rcpt,
    returnPath: sent.returnPath,
    recipient: "ada@example.org",
    messageId: sent.messageIdHeader,
  });
  return { workspace, sent, raw, rcpt };
}

async function suppressionList(workspaceId: string) {
  const rows = await (await getDb()).select().from(suppressions).where(eq(suppressions.workspaceId, workspaceId));
  return rows.map((row) => ({ email: row.email, reason: row.reason }));
}

async function paused(workspaceId: string) {
  const [row] = await (await getDb()).select().from(workspaces).where(eq(workspaces.id, workspaceId));
  return row.sendingPaused && row.pausedAutomatically;
}

describe("delivery status notifications (RFC 3464)", () => {
  it.each([
    ["postfix-hard.eml", "5.1.1", "User unknown in virtual mailbox table", "mail.example.net"],
    ["gmail-dsn.eml", "5.1.1", "The email account that you tried to reach does not exist", "googlemail.com"],
    ["exchange-ndr.eml", "5.1.10", "RESOLVER.ADR.RecipientNotFound", "AM0PR01MB5678.eurprd01.prod.exchangelabs.com"],
  ])(
    "%s: a permanent failure bounces, suppresses the recipient and pauses the workspace",
    async (fixture, status, diagnostic, mta) => {
      const { workspace, sent, raw, rcpt } = await scenario(fixture);
      expect(await deliver(raw, rcpt)).toMatch(/^250 2\.0\.0 Report received \(dsn: 1 recorded/);

      const { message, events, codes } = await readMessageState(sent.id);
      expect(codes.at(-1)).toBe(BOUNCE);
      const bounce = events.at(-1)!;
      expect(bounce.message).toMatch(
        new RegExp(`^Bounced \\(Permanent\\) for ada@example\\.org: 55\\d[ -]${status.replaceAll(".", "\\.")} `),
      );
      expect(bounce.message).toContain(diagnostic);
      expect(bounce.message).toContain(`reported by ${mta}`);
      expect(bounce.details).toMatchObject({
        provider: "inbound",
        bounceType: "Permanent",
        status,
        action: "failed",
        finalRecipient: "ada@example.org",
      });
      expect(message.firstBouncedAt).toBeInstanceOf(Date);
      expect(message.status).toBe("SUCCEEDED");
      expect(await suppressionList(workspace.id)).toEqual([{ email: "ada@example.org", reason: "HARD_BOUNCE" }]);
      expect(await paused(workspace.id)).toBe(true);
    },
  );

  it("the RFC 3464 example (failed, 4.0.0 after 5 days): a delayed event, no bounce, nothing suppressed", async () => {
    const { workspace, sent, raw, rcpt } = await scenario("rfc3464-example.eml");
    await deliver(raw, rcpt);
    const { message, events } = await readMessageState(sent.id);
    expect(events.at(-1)).toMatchObject({
      code: "EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT",
      message: expect.stringContaining(
        "Delivery to ada@example.org failed temporarily and the relay stopped trying: 4.0.0 426 connection timed out, reported by cs.utk.edu",
      ),
    });
    expect(message.firstBouncedAt).toBeNull();
    expect(await suppressionList(workspace.id)).toEqual([]);
  });

  it("a Postfix delay warning: a delayed event, no bounce time, nothing suppressed, no pause", async () => {
    const { workspace, sent, raw, rcpt } = await scenario("postfix-delayed.eml");
    await deliver(raw, rcpt);
    const { message, events } = await readMessageState(sent.id);
    expect(events.at(-1)).toMatchObject({
      code: DELAYED,
      message: expect.stringMatching(
        /^Delivery to ada@example\.org is delayed: 4\.4\.1 connect to mx\.example\.org.*Connection timed out, reported by mail\.example\.net; the relay keeps trying\.$/,
      ),
    });
    expect(message.firstBouncedAt).toBeNull();
    expect(await suppressionList(workspace.id)).toEqual([]);
    expect(await paused(workspace.id)).toBe(false);
  });

  it("a success DSN records DELIVERED and the delivery time", async () => {
    const { sent, raw, rcpt } = await scenario("delivered-dsn.eml");
    await deliver(raw, rcpt);
    const { message, events } = await readMessageState(sent.id);
    expect(events.at(-1)).toMatchObject({
      code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
      message: "Delivered to ada@example.org by mx.example.org, reported by mail.example.net.",
    });
    expect(message.deliveredAt).toBeInstanceOf(Date);
  });

  it("the same DSN delivered twice records one event", async () => {
    const { sent, raw, rcpt } = await scenario("postfix-hard.eml");
    await deliver(raw, rcpt);
    expect(await deliver(raw, rcpt)).toMatch(/0 recorded, 1 already known/);
    const { codes } = await readMessageState(sent.id);
    expect(codes.filter((code) => code === BOUNCE)).toHaveLength(1);
  });

  it("a report about a recipient the message was not sent to suppresses nobody", async () => {
    const { workspace, sent, rcpt } = await scenario("postfix-hard.eml");
    const raw = fixtureReport("postfix-hard.eml", {
      to: rcpt,
      returnPath: sent.returnPath,
      recipient: "victim@example.net",
      messageId: sent.messageIdHeader,
    });
    await deliver(raw, rcpt);
    expect((await readMessageState(sent.id)).codes.at(-1)).toBe(BOUNCE);
    expect(await suppressionList(workspace.id)).toEqual([]);
  });
});

describe("plain-text bounces and other replies", () => {
  it("Exim's plain-text bounce: a permanent bounce of the failed address only (not the quoted original's)", async () => {
    const { workspace, sent, raw, rcpt } = await scenario("exim-plain.eml", {
      to: ["Ada <ada@example.org>", "someone-else@example.org"],
    });
    await deliver(raw, rcpt);
    const { events } = await readMessageState(sent.id);
    expect(events.at(-1)).toMatchObject({
      code: BOUNCE,
      message: expect.stringMatching(
        /^Bounced \(Permanent\) for ada@example\.org: 550 5\.1\.1 .*User unknown \(plain-text bounce, rule: 5\.x\.x status\)\.$/,
      ),
    });
    expect(await suppressionList(workspace.id)).toEqual([{ email: "ada@example.org", reason: "HARD_BOUNCE" }]);
  });

  it("a 'mailbox full' notice is a transient bounce, even with a 5.2.2", async () => {
    const { workspace, sent, raw, rcpt } = await scenario("mailbox-full.eml");
    await deliver(raw, rcpt);
    const { events } = await readMessageState(sent.id);
    expect(events.at(-1)).toMatchObject({
      code: BOUNCE,
      details: expect.objectContaining({ rule: "mailbox full", bounceType: "Transient" }),
    });
    expect(await suppressionList(workspace.id)).toEqual([]);
  });

  it.each([
    ["out-of-office.eml", 'An automatic reply ("Automatic reply: Hello")'],
    ["unclassifiable.eml", 'A bounce no rule could classify ("Returned mail: see transcript for details")'],
  ])("%s is kept as an unclassified event, nothing suppressed", async (fixture, sentence) => {
    const { workspace, sent, raw, rcpt } = await scenario(fixture);
    await deliver(raw, rcpt);
    const { message, events } = await readMessageState(sent.id);
    expect(events.at(-1)).toMatchObject({ code: UNCLASSIFIED, message: expect.stringContaining(sentence) });
    expect(message.firstBouncedAt).toBeNull();
    expect(await suppressionList(workspace.id)).toEqual([]);
  });
});

describe("complaints (ARF, RFC 5965)", () => {
  it("the RFC 5965 example sent to the return path: COMPLAINT, suppression, pause", async () => {
    const { workspace, sent, raw, rcpt } = await scenario("rfc5965-example.eml");
    await deliver(raw, rcpt);
    const { message, events } = await readMessageState(sent.id);
    expect(events.at(-1)).toMatchObject({
      code: COMPLAINT,
      message: "Complaint (abuse) from ada@example.org (feedback loop: SomeGenerator/1.0).",
    });
    expect(message.firstComplainedAt).toBeInstanceOf(Date);
    expect(await suppressionList(workspace.id)).toEqual([{ email: "ada@example.org", reason: "COMPLAINT" }]);
    expect(await paused(workspace.id)).toBe(true);
  });

  it("Yahoo's feedback loop report to fbl@: the message is found by the original's Return-Path token", async () => {
    const { workspace, sent, raw, rcpt } = await scenario("yahoo-arf.eml", { rcpt: "fbl" });
    await deliver(raw, rcpt);
    const { events } = await readMessageState(sent.id);
    expect(events.at(-1)).toMatchObject({
      code: COMPLAINT,
      message: "Complaint (abuse) from ada@example.org (feedback loop: Yahoo!-Mail-Feedback/2.0).",
    });
    expect(await suppressionList(workspace.id)).toEqual([{ email: "ada@example.org", reason: "COMPLAINT" }]);
  });

  it("a report to fbl@ whose original has no Return-Path is found by its Message-ID", async () => {
    const { workspace, sent, raw, rcpt } = await scenario("yahoo-arf.eml", { rcpt: "fbl" });
    await deliver(raw.replace(/^Return-Path: .*\r\n/gm, ""), rcpt);
    expect((await readMessageState(sent.id)).codes.at(-1)).toBe(COMPLAINT);
    expect(await suppressionList(workspace.id)).toEqual([{ email: "ada@example.org", reason: "COMPLAINT" }]);
  });

  it("fbl@ takes complaints only: a bounce sent there names no verified message and records nothing", async () => {
    const { workspace, sent, raw } = await scenario("exim-plain.eml", { rcpt: "fbl" });
    expect(await deliver(raw, `fbl@${TEST_BOUNCE_DOMAIN}`)).toMatch(/^250 .*0 recorded/);
    expect((await readMessageState(sent.id)).codes).not.toContain(BOUNCE);
    expect(await suppressionList(workspace.id)).toEqual([]);
  });
});

describe("what the listener refuses", () => {
  it("refuses at RCPT TO a forged token, an unknown domain and a relay attempt (550), and takes a case-folded return path", async () => {
    const { sent, raw } = await scenario("postfix-hard.eml");
    const [local] = sent.returnPath.split("@");
    const forged = `${local.slice(0, -1)}${local.endsWith("a") ? "b" : "a"}@${TEST_BOUNCE_DOMAIN}`;
    expect(await refusal(raw, forged)).toMatchObject({
      responseCode: 550,
      response: expect.stringContaining("No such return path"),
    });
    expect(await refusal(raw, `${local}@other.example.com`)).toMatchObject({
      responseCode: 550,
      response: expect.stringContaining("Relay access denied"),
    });
    expect(await refusal(raw, "victim@gmail.com")).toMatchObject({
      responseCode: 550,
      response: expect.stringContaining("5.7.1 <victim@gmail.com>: Relay access denied"),
    });
    expect(await refusal(raw, `postmaster@${TEST_BOUNCE_DOMAIN}`)).toMatchObject({ responseCode: 550 });
    expect((await readMessageState(sent.id)).codes).not.toContain(BOUNCE);

    expect(await deliver(raw, sent.returnPath.toUpperCase())).toMatch(/^250 /);
    expect((await readMessageState(sent.id)).codes.at(-1)).toBe(BOUNCE);
  });

  it("refuses a report over the size limit with 552 and records nothing", async () => {
    const { sent, raw, rcpt } = await scenario("postfix-hard.eml");
    const big = raw.replace(
      "This is the mail system",
      `${"x".repeat(76)}\r\n`.repeat(Math.ceil(MAX_BYTES / 78) + 10) + "This is the mail system",
    );
    expect(await refusal(big, rcpt)).toMatchObject({ responseCode: 552 });
    expect((await readMessageState(sent.id)).codes).not.toContain(BOUNCE);
  });

  it("answers 451 while the database is unreachable, so the relay retries; the retry records", async () => {
    const { sent, raw, rcpt } = await scenario("postfix-hard.eml");
    const original = await getDbHandle();
    const dead = postgres("postgres://postgres@127.0.0.1:1/unreachable", {
      max: 1,
      connect_timeout: 2,
      onnotice: () => {},
    });
    installDbHandle({
      db: drizzle(dead, { schema }),
      driver: "postgres",
      connectionString: "postgres://127.0.0.1:1/unreachable",
      close: () => dead.end({ timeout: 1 }),
    });
    try {
      expect(await refusal(raw, rcpt)).toMatchObject({ responseCode: 451 });
    } finally {
      installDbHandle(original);
      await dead.end({ timeout: 1 });
    }
    expect((await readMessageState(sent.id)).codes).not.toContain(BOUNCE);
    expect(await deliver(raw, rcpt)).toMatch(/^250 /);
    expect((await readMessageState(sent.id)).codes.at(-1)).toBe(BOUNCE);
  });
});
