import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { activityLogs, emailMessages } from "@/db/schema";
import { flushActivityLog } from "@/lib/records/activity/record-activity";
import { createUnsubscribeGroup } from "@/lib/domain/contacts/create-unsubscribe-group";
import { metrics } from "@/lib/foundation/metrics/metrics";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { callRoute } from "@/lib/testing/http";
import { POST } from "@/app/api/v1/email_messages/handlers";
import { smtpClient, startTestListener } from "./testing";
import type { SubmissionListener } from "./start-submission-server";

let listener: SubmissionListener;
let ws: Awaited<ReturnType<typeof createTestWorkspace>>;
let auth: { user: string; pass: string };

beforeAll(async () => {
  listener = await startTestListener();
  ws = await createTestWorkspace();
  auth = { user: ws.key.id, pass: ws.key.password };
});
afterAll(async () => listener.close());

const send = (mail: Record<string, unknown>, client = smtpClient(listener.port!, auth)) => client.sendMail(mail);

/** The message the 250 names: `250 2.0.0 OK em_…`. */
async function accepted(info: { response: string }) {
  const id = /^250 2\.0\.0 OK (em_[0-9A-Za-z]{16})/.exec(info.response)?.[1];
  expect(id, info.response).toBeDefined();
  return readMessageState(id!);
}

describe("SMTP submission (nodemailer)", () => {
  it("accepts plain text: the same rows, timeline and delivery as an API send, and an SMTP activity entry", async () => {
    const accepts = async () =>
      (await metrics().smtpReplies.get()).values.find((v) => v.labels.step === "DATA" && v.labels.code === "250")
        ?.value ?? 0;
    const acceptsBefore = await accepts();
    const info = await send({
      from: "Acme <hello@example.com>",
      to: "Ada <ada@example.org>",
      subject: "Plain",
      text: "Hello Ada,\nplain text.",
    });
    const { message, codes } = await accepted(info);
    expect(message).toMatchObject({
      workspaceId: ws.workspace.id,
      source: "API",
      sandbox: false,
      status: "PENDING",
      subject: "Plain",
    });
    expect(message.from).toBe("Acme <hello@example.com>");
    expect(message.to).toEqual(["Ada <ada@example.org>"]);
    expect(message.bodyText.trim()).toBe("Hello Ada,\nplain text.");
    expect(message.bodyHtml).toContain("plain text.");
    expect(codes).toEqual(["EMAIL_MESSAGE_CREATED", "EMAIL_MESSAGE_RENDERED"]);
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    const delivered = await readMessageState(message.id);
    expect(delivered.message.status).toBe("SUCCEEDED");
    // The same message through POST /v1/email_messages ends with the same timeline.
    const api = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: {
        from: "Acme <hello@example.com>",
        to: "Ada <ada@example.org>",
        subject: "Plain",
        bodyHtml: message.bodyHtml,
        bodyText: message.bodyText,
      },
    });
    expect(api.status).toBe(201);
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: api.json.data.id }, { attempt: 0 });
    expect((await readMessageState(api.json.data.id)).codes).toEqual(delivered.codes);
    expect(delivered.inbox[0].envelopeTo).toEqual(["ada@example.org"]);
    await flushActivityLog();
    const [entry] = await (
      await getDb()
    )
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.workspaceId, ws.workspace.id), eq(activityLogs.resourceId, message.id)));
    expect(entry).toMatchObject({
      method: "SMTP",
      path: "/smtp/DATA",
      status: 250,
      apiKeyId: ws.key.id,
      sandbox: false,
    });
    expect(await accepts()).toBe(acceptsBefore + 1);
  });

  it("keeps HTML, text and inline images with their content ids, and delivers them as related parts", async () => {
    const png = randomBytes(600);
    const info = await send({
      from: "hello@example.com",
      to: "ada@example.org",
      cc: "Bob <bob@example.org>",
      replyTo: "support@example.com",
      subject: "Inline",
      text: "See the logo.",
      html: '<p>See <img src="cid:logo@acme"> the logo.</p>',
      attachments: [
        { filename: "logo.png", content: png, contentType: "image/png", cid: "logo@acme" },
        { filename: "terms.pdf", content: Buffer.from("%PDF-1.4 terms"), contentType: "application/pdf" },
      ],
    });
    const { message } = await accepted(info);
    expect(message.bodyHtml).toContain('src="cid:logo@acme"');
    expect(message.bodyText.trim()).toBe("See the logo.");
    expect(message.cc).toEqual(["Bob <bob@example.org>"]);
    expect(message.replyTo).toBe("support@example.com");
    expect(message.attachments).toEqual([
      expect.objectContaining({ name: "logo.png", contentType: "image/png", cid: "logo@acme", size: 600 }),
      expect.objectContaining({ name: "terms.pdf", contentType: "application/pdf", size: 14 }),
    ]);
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    const { inbox } = await readMessageState(message.id);
    expect(inbox[0].mime).toMatch(/Content-ID: <logo@acme>/i);
    expect(inbox[0].mime).toContain(png.toString("base64").slice(0, 60));
    expect(inbox[0].envelopeTo.sort()).toEqual(["ada@example.org", "bob@example.org"]);
  });

  it("reads UTF-8 headers and an 8-bit body sent as they are (SMTPUTF8, 8BITMIME)", async () => {
    const raw = [
      "From: Zoë Ærø <hello@example.com>",
      "To: Jürgen <jurgen@example.org>",
      "Subject: Grüße – 日本語 ✓",
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 8bit",
      "",
      "Schöne Grüße, ça va? 日本語のテキスト.",
      "",
    ].join("\r\n");
    const info = await send({ envelope: { from: "hello@example.com", to: ["jurgen@example.org"] }, raw });
    const { message } = await accepted(info);
    expect(message.subject).toBe("Grüße – 日本語 ✓");
    expect(message.from).toBe("Zoë Ærø <hello@example.com>");
    expect(message.to).toEqual(["Jürgen <jurgen@example.org>"]);
    expect(message.bodyText).toContain("Schöne Grüße, ça va? 日本語のテキスト.");
  });

  it("sends BCC-only mail: envelope recipients named in no header become Bcc", async () => {
    const info = await send({
      from: "hello@example.com",
      bcc: ["hidden@example.org", "also-hidden@example.org"],
      subject: "Blind",
      text: "x",
    });
    const { message } = await accepted(info);
    expect(message.to).toEqual([]);
    expect(message.bcc.sort()).toEqual(["also-hidden@example.org", "hidden@example.org"]);
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    const { inbox } = await readMessageState(message.id);
    expect(inbox[0].mime).not.toMatch(/^(To|Bcc):/im);
    expect(inbox[0].envelopeTo.sort()).toEqual(["also-hidden@example.org", "hidden@example.org"]);
  });

  it("maps References and In-Reply-To, and the X-Postwerk headers, which are never delivered", async () => {
    const template = await ws.createTemplate();
    const info = await send({
      from: "hello@example.com",
      to: "ada@example.org",
      subject: "ignored with a template",
      text: "ignored",
      inReplyTo: "<parent@example.org>",
      references: ["<root@example.org>"],
      headers: {
        "X-Postwerk-Template-Id": template.id,
        "X-Postwerk-Variables": JSON.stringify({ name: "Ada" }),
        "X-Postwerk-Metadata": JSON.stringify({ orderId: 42, channel: "cron" }),
      },
    });
    const { message } = await accepted(info);
    expect(message).toMatchObject({
      templateId: template.id,
      subject: "Welcome, Ada",
      metadata: { orderId: 42, channel: "cron" },
    });
    expect(message.headers).toEqual({ references: "<root@example.org> <parent@example.org>" });
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    const { inbox } = await readMessageState(message.id);
    expect(inbox[0].mime).toContain("References: <root@example.org> <parent@example.org>");
    expect(inbox[0].mime).not.toMatch(/X-Postwerk/i);
  });

  it("tags the message by repeated X-Postwerk-Tag headers (never delivered); a bad one is refused naming it", async () => {
    const info = await send({
      from: "hello@example.com",
      to: "ada@example.org",
      subject: "Tagged",
      text: "x",
      headers: { "X-Postwerk-Tag": ["plan:pro", "note:a, b and ü"] },
    });
    const { message } = await accepted(info);
    expect(message.tags).toEqual(["plan:pro", "note:a, b and ü"]);
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    const { inbox } = await readMessageState(message.id);
    expect(inbox[0].mime).toContain("Subject: Tagged");
    expect(inbox[0].mime).not.toMatch(/X-Postwerk|plan:pro/i);
    await expect(
      send({
        from: "hello@example.com",
        to: "ada@example.org",
        subject: "Bad tag",
        text: "x",
        headers: { "X-Postwerk-Tag": ["plan:pro", "no-colon"] },
      }),
    ).rejects.toThrow(/550 5\.6\.0 .*tags\[1\]/);
  });

  it("schedules by X-Postwerk-Scheduled-At like the API's scheduledAt, and refuses a past time naming it", async () => {
    const at = new Date(Date.now() + 2 * 3600_000);
    const info = await send({
      from: "hello@example.com",
      to: "ada@example.org",
      subject: "Later",
      text: "x",
      headers: { "X-Postwerk-Scheduled-At": at.toISOString() },
    });
    const { message } = await accepted(info);
    expect(message.scheduledAt).toEqual(new Date(Math.floor(at.getTime())));
    expect(message.status).toBe("PENDING");
    await expect(
      send({
        from: "hello@example.com",
        to: "ada@example.org",
        subject: "Past",
        text: "x",
        headers: { "X-Postwerk-Scheduled-At": "2001-01-01T00:00:00Z" },
      }),
    ).rejects.toThrow(/550 5\.6\.0 .*scheduledAt/);
  });

  it("puts group mail in its unsubscribe group by X-Postwerk-Group-Key: the link and List-Unsubscribe go out", async () => {
    const group = await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "digest", name: "Digest" });
    const info = await send({
      from: "hello@example.com",
      to: "ada@example.org",
      subject: "Digest",
      html: "<p>News</p>",
      headers: { "X-Postwerk-Group-Key": "digest" },
    });
    const { message } = await accepted(info);
    expect(message.groupId).toBe(group.id);
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    const { inbox } = await readMessageState(message.id);
    expect(inbox[0].mime).toMatch(/^List-Unsubscribe:\s+<http/m);
    expect(message.bodyHtml).toContain(">Unsubscribe</a>");
  });

  it("replays a metaId: the same X-Postwerk-Meta-Id and body returns the earlier message, a new body is a new message", async () => {
    const mail = {
      from: "hello@example.com",
      to: "ada@example.org",
      subject: "Once",
      text: "only once",
      headers: { "X-Postwerk-Meta-Id": "order-7" },
    };
    const first = await accepted(await send(mail));
    const again = await send(mail);
    expect(again.response).toBe(`250 2.0.0 OK ${first.message.id} (metaId replay: the message accepted earlier)`);
    const rows = await (
      await getDb()
    )
      .select()
      .from(emailMessages)
      .where(and(eq(emailMessages.workspaceId, ws.workspace.id), eq(emailMessages.metaId, "order-7")));
    expect(rows).toHaveLength(1);
    const changed = await accepted(await send({ ...mail, text: "another body" }));
    expect(changed.message.id).not.toBe(first.message.id);
  });

  it("takes several messages on one pooled connection, and a 20 MB attachment", { timeout: 120_000 }, async () => {
    const client = smtpClient(listener.port!, auth, { pool: true, maxConnections: 1, maxMessages: 10 });
    const infos = await Promise.all(
      [1, 2, 3].map((n) =>
        send({ from: "hello@example.com", to: "ada@example.org", subject: `Pooled ${n}`, text: "x" }, client),
      ),
    );
    const ids = infos.map((info) => /em_\w+/.exec(info.response)![0]);
    expect(new Set(ids).size).toBe(3);
    const big = randomBytes(20 * 1024 * 1024);
    const info = await send(
      {
        from: "hello@example.com",
        to: "ada@example.org",
        subject: "Big",
        text: "20 MB",
        attachments: [{ filename: "big.bin", content: big }],
      },
      client,
    );
    client.close();
    const { message } = await accepted(info);
    expect(message.attachments).toEqual([
      expect.objectContaining({ name: "big.bin", contentType: "application/octet-stream", size: big.length }),
    ]);
    const stored = (message.attachments[0] as { contentBase64?: string }).contentBase64!;
    expect(Buffer.from(stored, "base64").equals(big)).toBe(true);
  });

  it("accepts sandbox mail with the username key_…+sandbox", async () => {
    const info = await send(
      { from: "hello@example.com", to: "ada@example.org", subject: "Sandbox", text: "x" },
      smtpClient(listener.port!, { user: `${ws.key.id}+sandbox`, pass: ws.key.password }),
    );
    const { message } = await accepted(info);
    expect(message).toMatchObject({ sandbox: true, source: "SANDBOX_API" });
  });
});
