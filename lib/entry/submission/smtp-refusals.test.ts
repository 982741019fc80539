import { and, count, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { revokeApiKeyOrThrow } from "@/lib/domain/api-keys/revoke-api-key";
import { AUDIT_CLI_ACTOR, AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import type { SubmissionListener } from "./start-submission-server";
import { mayAuthenticate } from "./submission-handlers";
import { plainAuth, RawSmtp, refusal, smtpClient, startTestListener } from "./testing";

let listener: SubmissionListener;
let small: SubmissionListener;
let ws: Awaited<ReturnType<typeof createTestWorkspace>>;
const open: RawSmtp[] = [];

beforeAll(async () => {
  listener = await startTestListener();
  small = await startTestListener({ SMTP_MAX_MESSAGE_BYTES: 4096 });
  ws = await createTestWorkspace();
});
afterEach(() => open.splice(0).forEach((session) => session.destroy()));
afterAll(async () => Promise.all([listener.close(), small.close()]));

async function messagesOf(workspaceId: string): Promise<number> {
  const [row] = await (
    await getDb()
  )
    .select({ n: count() })
    .from(emailMessages)
    .where(eq(emailMessages.workspaceId, workspaceId));
  return row.n;
}

/** A raw session, greeted, EHLO'd and (unless told otherwise) authenticated with the workspace's key. */
async function session(
  port = listener.port!,
  username: string | null = ws.key.id,
  password = ws.key.password,
): Promise<RawSmtp> {
  const smtp = await RawSmtp.connect(port);
  open.push(smtp);
  expect(await smtp.reply()).toMatch(/^220 /);
  expect(await smtp.command("EHLO client.test")).toMatch(/^250/);
  if (username) expect(await smtp.command(`AUTH PLAIN ${plainAuth(username, password)}`)).toMatch(/^235/);
  return smtp;
}

describe("refusals at the earliest step, with their reply codes", () => {
  it("relays for no one unauthenticated: MAIL FROM without AUTH is 530, and nodemailer without auth is refused", async () => {
    const smtp = await session(listener.port!, null);
    expect(await smtp.command("MAIL FROM:<hello@example.com>")).toMatch(/^530 5\.7\.0 Authentication required/);
    expect(await smtp.command("RCPT TO:<victim@elsewhere.example>")).toMatch(/^530 /);
    const error = await refusal(
      smtpClient(listener.port!, null).sendMail({
        from: "hello@example.com",
        to: "victim@elsewhere.example",
        subject: "relay",
        text: "x",
      }),
    );
    expect(error.responseCode).toBe(530);
    expect(await messagesOf(ws.workspace.id)).toBe(0);
  });

  it("refuses a wrong secret and a malformed username alike (535 5.7.8)", async () => {
    for (const [user, pass] of [
      [ws.key.id, "wrong"],
      ["someone", ws.key.password],
    ]) {
      const smtp = await session(listener.port!, null);
      expect(await smtp.command(`AUTH PLAIN ${plainAuth(user, pass)}`)).toMatch(/^535 5\.7\.8 /);
    }
  });

  it("refuses a key without the send scope at AUTH, naming it; a sandbox-only key authenticates for the sandbox only", async () => {
    const keyWith = (scope: "emails:read" | "emails:sandbox") =>
      createApiKey({ workspaceId: ws.workspace.id, name: scope, scopes: [scope], actor: AUDIT_SYSTEM_ACTOR });
    const reader = await keyWith("emails:read");
    const sandboxOnly = await keyWith("emails:sandbox");
    const auth = async (user: string, pass: string) =>
      (await session(listener.port!, null)).command(`AUTH PLAIN ${plainAuth(user, pass)}`);
    expect(await auth(reader.id, reader.password)).toMatch(/^550 5\.6\.0 This API key lacks the emails:send scope/);
    expect(await auth(sandboxOnly.id, sandboxOnly.password)).toMatch(/^550 .*lacks the emails:send scope/);
    expect(await auth(`${sandboxOnly.id}+sandbox`, sandboxOnly.password)).toMatch(/^235/);
  });

  it("refuses an unverified sender domain at MAIL FROM, naming it (550 5.7.1)", async () => {
    const smtp = await session();
    expect(await smtp.command("MAIL FROM:<hello@unverified.example>")).toMatch(/^550 5\.7\.1 .*unverified\.example/);
    expect(await smtp.command("MAIL FROM:<>")).toMatch(/^550 5\.7\.1 /);
  });

  it("refuses the 51st recipient (452 4.5.3) and keeps the 50 before it", async () => {
    const smtp = await session();
    expect(await smtp.command("MAIL FROM:<hello@example.com>")).toMatch(/^250/);
    for (let n = 1; n <= 50; n++) expect(await smtp.command(`RCPT TO:<r${n}@example.org>`)).toMatch(/^250/);
    expect(await smtp.command("RCPT TO:<r51@example.org>")).toMatch(/^452 4\.5\.3 Too many recipients/);
  });

  it("refuses a recipient outside the members while the workspace is in test mode (550 5.7.1), as the API does; the sandbox takes it", async () => {
    const testing = await createTestWorkspace({ testMode: true });
    const live = await session(listener.port!, testing.key.id, testing.key.password);
    expect(await live.command("MAIL FROM:<hello@example.com>")).toMatch(/^250/);
    expect(await live.command("RCPT TO:<stranger@example.org>")).toMatch(/^550 5\.7\.1 The workspace is in test mode/);
    const sandbox = await session(listener.port!, `${testing.key.id}+sandbox`, testing.key.password);
    expect(await sandbox.command("MAIL FROM:<hello@example.com>")).toMatch(/^250/);
    expect(await sandbox.command("RCPT TO:<stranger@example.org>")).toMatch(/^250/);
  });

  it("refuses SIZE= over the limit at MAIL FROM, and a message that grows over it while read, writing nothing (552)", async () => {
    const before = await messagesOf(ws.workspace.id);
    const smtp = await session(small.port!);
    expect(await smtp.command("EHLO again.test")).toContain("SIZE 4096");
    expect(await smtp.command("MAIL FROM:<hello@example.com> SIZE=5000")).toMatch(/^552 /);
    expect(await smtp.command("MAIL FROM:<hello@example.com>")).toMatch(/^250/);
    expect(await smtp.command("RCPT TO:<ada@example.org>")).toMatch(/^250/);
    expect(await smtp.command("DATA")).toMatch(/^354/);
    expect(
      await smtp.command(
        `From: hello@example.com\r\nTo: ada@example.org\r\nSubject: big\r\n\r\n${"x".repeat(6000)}\r\n.`,
      ),
    ).toMatch(/^552 /);
    expect(await messagesOf(ws.workspace.id)).toBe(before);
  });

  it("answers the key's rate limit with 451 4.7.0 and when to retry", async () => {
    const limited = await createTestWorkspace();
    useSettings({ RATE_LIMIT_PER_SECOND: "1", RATE_LIMIT_BURST: "1" });
    try {
      const smtp = await session(listener.port!, limited.key.id, limited.key.password);
      expect(await smtp.command("MAIL FROM:<hello@example.com>")).toMatch(/^250/);
      expect(await smtp.command("RSET")).toMatch(/^250/);
      expect(await smtp.command("MAIL FROM:<hello@example.com>")).toMatch(
        /^451 4\.7\.0 Too many requests.*Retry after \d+ s/,
      );
    } finally {
      useSettings({ RATE_LIMIT_PER_SECOND: undefined, RATE_LIMIT_BURST: undefined });
    }
  });

  it("refuses a key revoked while its connection is open, at the next MAIL FROM (535)", async () => {
    const doomed = await createTestWorkspace();
    const smtp = await session(listener.port!, doomed.key.id, doomed.key.password);
    await revokeApiKeyOrThrow(doomed.workspace.id, doomed.key.id, AUDIT_CLI_ACTOR);
    expect(await smtp.command("MAIL FROM:<hello@example.com>")).toMatch(/^535 5\.7\.8 /);
  });

  it("refuses at DATA what the API refuses, with its sentence (550 5.6.0), and a header recipient not in the envelope (550 5.1.0)", async () => {
    const auth = { user: ws.key.id, pass: ws.key.password };
    const noSubject = await refusal(
      smtpClient(listener.port!, auth).sendMail({
        envelope: { from: "hello@example.com", to: ["ada@example.org"] },
        raw: "From: hello@example.com\r\nTo: ada@example.org\r\n\r\nno subject\r\n",
      }),
    );
    expect(noSubject).toMatchObject({
      responseCode: 550,
      response: expect.stringMatching(/^550 5\.6\.0 The message has no Subject header/),
    });
    const badJson = await refusal(
      smtpClient(listener.port!, auth).sendMail({
        from: "hello@example.com",
        to: "ada@example.org",
        subject: "s",
        text: "x",
        headers: { "X-Postwerk-Metadata": "[1,2]" },
      }),
    );
    expect(badJson.response).toMatch(/^550 5\.6\.0 The X-Postwerk-Metadata header must be a JSON object/);
    const unknownTemplate = await refusal(
      smtpClient(listener.port!, auth).sendMail({
        from: "hello@example.com",
        to: "ada@example.org",
        subject: "s",
        text: "x",
        headers: { "X-Postwerk-Template-Id": "tpl_0000000000000000" },
      }),
    );
    expect(unknownTemplate.response).toMatch(/^550 5\.6\.0 .*not found.*\(templateId\)/);
    const outside = await refusal(
      smtpClient(listener.port!, auth).sendMail({
        envelope: { from: "hello@example.com", to: ["ada@example.org"] },
        from: "hello@example.com",
        to: "ada@example.org, eve@example.org",
        subject: "s",
        text: "x",
      }),
    );
    expect(outside.response).toMatch(/^550 5\.1\.0 eve@example\.org is named in the headers but not given in RCPT TO/);
    expect(await messagesOf(ws.workspace.id)).toBe(0);
  });

  it("writes nothing when the client disconnects in the middle of DATA, and keeps serving", async () => {
    const smtp = await session();
    expect(await smtp.command("MAIL FROM:<hello@example.com>")).toMatch(/^250/);
    expect(await smtp.command("RCPT TO:<ada@example.org>")).toMatch(/^250/);
    expect(await smtp.command("DATA")).toMatch(/^354/);
    await smtp.write("From: hello@example.com\r\nTo: ada@example.org\r\nSubject: cut\r\n\r\nhalf a mess");
    smtp.destroy();
    // A sleep, not a wait: what is tested is that nothing is written, so time must pass for it not to happen.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await messagesOf(ws.workspace.id)).toBe(0);
    const info = await smtpClient(listener.port!, { user: ws.key.id, pass: ws.key.password }).sendMail({
      from: "hello@example.com",
      to: "ada@example.org",
      subject: "after",
      text: "x",
    });
    expect(info.response).toMatch(/^250 2\.0\.0 OK em_/);
    await (await getDb()).delete(emailMessages).where(and(eq(emailMessages.workspaceId, ws.workspace.id)));
  });
});

describe("raw SMTP, as swaks speaks it", () => {
  it("advertises its extensions, takes AUTH LOGIN, pipelined commands, dot-stuffing and two messages on one connection", async () => {
    const smtp = await RawSmtp.connect(listener.port!);
    open.push(smtp);
    expect(await smtp.reply()).toMatch(/^220 /);
    const ehlo = await smtp.command("EHLO swaks.test");
    for (const extension of ["PIPELINING", "8BITMIME", "SMTPUTF8", "AUTH PLAIN LOGIN", "SIZE"])
      expect(ehlo).toContain(extension);
    expect(await smtp.command("AUTH LOGIN")).toMatch(/^334 /);
    expect(await smtp.command(Buffer.from(ws.key.id).toString("base64"))).toMatch(/^334 /);
    expect(await smtp.command(Buffer.from(ws.key.password).toString("base64"))).toMatch(/^235/);
    const ids: string[] = [];
    for (const subject of ["First", "Second"]) {
      await smtp.write(
        "MAIL FROM:<hello@example.com>\r\nRCPT TO:<ada@example.org>\r\nRCPT TO:<bob@example.org>\r\nDATA\r\n",
      );
      expect(
        [await smtp.reply(), await smtp.reply(), await smtp.reply(), await smtp.reply()].map((reply) =>
          reply.slice(0, 3),
        ),
      ).toEqual(["250", "250", "250", "354"]);
      const reply = await smtp.command(
        `From: hello@example.com\r\nTo: ada@example.org\r\nSubject: ${subject}\r\n\r\n..a line that starts with a dot\r\n.`,
      );
      ids.push(/^250 2\.0\.0 OK (em_\w{16})$/.exec(reply)![1]);
    }
    expect(await smtp.command("QUIT")).toMatch(/^221/);
    const [first, second] = await Promise.all(ids.map((id) => readMessageState(id)));
    expect(first.message).toMatchObject({ subject: "First", to: ["ada@example.org"], bcc: ["bob@example.org"] });
    expect(first.message.bodyText.trim()).toBe(".a line that starts with a dot");
    expect(second.message.subject).toBe("Second");
    await (await getDb()).delete(emailMessages).where(eq(emailMessages.workspaceId, ws.workspace.id));
  });
});

describe("who may AUTH without TLS", () => {
  it("only a loopback client, only when SMTP_ALLOW_INSECURE_AUTH allows it; over TLS anyone", () => {
    expect(mayAuthenticate({ secure: false, remoteAddress: "127.0.0.1" }, true)).toBe(true);
    expect(mayAuthenticate({ secure: false, remoteAddress: "::ffff:127.0.0.5" }, true)).toBe(true);
    expect(mayAuthenticate({ secure: false, remoteAddress: "::1" }, true)).toBe(true);
    expect(mayAuthenticate({ secure: false, remoteAddress: "10.0.0.8" }, true)).toBe(false);
    expect(mayAuthenticate({ secure: false, remoteAddress: "127.0.0.1" }, false)).toBe(false);
    expect(mayAuthenticate({ secure: true, remoteAddress: "203.0.113.9" }, false)).toBe(true);
  });
});
