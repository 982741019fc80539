import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { activityLogs, attachments, emailMessageLogs, emailMessages, localInbox } from "@/db/schema";
import { createAttachment } from "@/lib/domain/attachments/create-attachment";
import { getAttachmentStorage } from "@/lib/domain/attachments/storage";
import { uploadAttachment, withStorageEnv } from "@/lib/domain/attachments/testing";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { flushActivityLog } from "@/lib/records/activity/record-activity";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { POST as sandboxSend } from "../sandbox/email_messages/handlers";
import { POST as send } from "../email_messages/handlers";

withStorageEnv();

const raw = {
  from: "Acme <hello@example.com>",
  to: "ada@example.org",
  subject: "Your report",
  bodyHtml: "<p>Attached.</p>",
};
const pdf = (attachmentId: string) => ({ name: "report.pdf", contentType: "application/pdf", attachmentId });

async function messageRow(id: string) {
  return (await (await getDb()).select().from(emailMessages).where(eq(emailMessages.id, id)))[0];
}

async function deliveredMime(workspaceId: string, messageId: string): Promise<string> {
  await deliverMessage({ workspaceId, messageId }, { attempt: 0 });
  const [row] = await (await getDb()).select().from(localInbox).where(eq(localInbox.emailMessageId, messageId));
  return row.mime;
}

/** The headers and decoded body of the MIME part whose headers match `pattern`. */
function part(mime: string, pattern: RegExp): { headers: string; content: Buffer } {
  const found = mime
    .split(/\r\n--[^\r\n]+\r\n/)
    .map((chunk) => ({
      headers: chunk.slice(0, chunk.indexOf("\r\n\r\n")).replace(/\r\n[ \t]+/g, " "),
      body: chunk.slice(chunk.indexOf("\r\n\r\n") + 4),
    }))
    .find((candidate) => pattern.test(candidate.headers));
  if (!found) throw new Error(`no MIME part matches ${pattern}`);
  const body = found.body.split(/\r\n--/)[0];
  return {
    headers: found.headers,
    content: /base64/i.test(found.headers) ? Buffer.from(body.replace(/\s+/g, ""), "base64") : Buffer.from(body),
  };
}

describe("sending with an uploaded attachment", () => {
  it("stores { name, contentType, size, attachmentId } and delivery puts the stored bytes in the MIME", async () => {
    const ws = await createTestWorkspace();
    const bytes = randomBytes(3000);
    const uploaded = await uploadAttachment(ws.workspace.id, ws.key.id, bytes);
    const res = await callRoute(send, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, attachments: [pdf(uploaded.id)] },
    });
    expect(res.status).toBe(201);
    const row = await messageRow(res.json.data.id);
    expect(row.attachments).toEqual([
      { name: "report.pdf", contentType: "application/pdf", size: 3000, attachmentId: uploaded.id },
    ]);

    const mime = await deliveredMime(ws.workspace.id, row.id);
    const attachment = part(mime, /filename=report\.pdf/);
    expect(attachment.headers).toMatch(/Content-Type: application\/pdf/);
    expect(attachment.headers).toMatch(/Content-Disposition: attachment/);
    expect(attachment.content.equals(bytes)).toBe(true);
    expect((await messageRow(row.id)).status).toBe("SUCCEEDED");
  });

  it("turns a cid attachment into an inline part referenced from the HTML, and logs contentBlob as its size", async () => {
    const ws = await createTestWorkspace();
    const png = randomBytes(600);
    const body = {
      ...raw,
      bodyHtml: '<p>Logo: <img src="cid:logo@acme" alt="Acme"></p>',
      attachments: [
        { name: "logo.png", contentType: "image/png", contentBlob: png.toString("base64"), cid: "logo@acme" },
      ],
    };
    const res = await callRoute(send, "/api/v1/email_messages", { authorization: ws.authorization, body });
    expect(res.status).toBe(201);
    const mime = await deliveredMime(ws.workspace.id, res.json.data.id);
    expect(mime).toMatch(/Content-Type: multipart\/related/);
    const image = part(mime, /Content-ID: <logo@acme>/);
    expect(image.headers).toMatch(/Content-Type: image\/png/);
    expect(image.headers).toMatch(/Content-Disposition: inline/);
    expect(image.content.equals(png)).toBe(true);
    expect(part(mime, /Content-Type: text\/html/).content.toString()).toContain('src="cid:logo@acme"');

    await flushActivityLog();
    const [activity] = await (
      await getDb()
    )
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.workspaceId, ws.workspace.id));
    const logged = activity.requestBody as { attachments: Array<{ contentBlob: string; name: string }> };
    expect(logged.attachments[0]).toMatchObject({ name: "logo.png", contentBlob: "[base64, 600 bytes]" });
  });

  it("fails the message with a timeline event when the bytes were purged while it waited", async () => {
    const ws = await createTestWorkspace();
    const uploaded = await uploadAttachment(ws.workspace.id, ws.key.id, Buffer.from("short-lived"));
    const res = await callRoute(send, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, attachments: [pdf(uploaded.id)] },
    });
    const db = await getDb();
    const [record] = await db.select().from(attachments).where(eq(attachments.id, uploaded.id));
    await (await getAttachmentStorage()).delete(record.storageKey);
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: res.json.data.id }, { attempt: 0 });
    expect((await messageRow(res.json.data.id)).status).toBe("FAILED");
    const events = await db
      .select()
      .from(emailMessageLogs)
      .where(eq(emailMessageLogs.emailMessageId, res.json.data.id))
      .orderBy(asc(emailMessageLogs.createdAt));
    expect(events.at(-1)).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR" });
    expect(events.at(-1)!.message).toMatch(/report\.pdf .* no longer stored/);
    expect(await db.select().from(localInbox).where(eq(localInbox.emailMessageId, res.json.data.id))).toHaveLength(0);
  });
});

describe("sending with an unusable attachmentId: 400 naming attachments[i].attachmentId, nothing written", () => {
  const DAY = 24 * 60 * 60 * 1000;
  const cases: Array<[string, (ws: Awaited<ReturnType<typeof createTestWorkspace>>) => Promise<string>]> = [
    ["unknown", async () => "attachment_0000000000000000"],
    ["malformed", async () => "../../etc/passwd"],
    [
      "another workspace's",
      async () => {
        const stranger = await createTestWorkspace();
        return (await uploadAttachment(stranger.workspace.id, stranger.key.id, Buffer.from("theirs"))).id;
      },
    ],
    [
      "not uploaded yet",
      async (ws) =>
        (await createAttachment({ workspaceId: ws.workspace.id, credential: ws.key.id, body: undefined })).attachment
          .id,
    ],
    [
      "expired by retention (30 days)",
      async (ws) => {
        const { id } = await uploadAttachment(ws.workspace.id, ws.key.id, Buffer.from("old"));
        await (
          await getDb()
        )
          .update(attachments)
          .set({ uploadedAt: new Date(Date.now() - 30 * DAY - 1000) })
          .where(and(eq(attachments.workspaceId, ws.workspace.id), eq(attachments.id, id)));
        return id;
      },
    ],
  ];

  it.each(cases)("%s", async (_name, makeId) => {
    const ws = await createTestWorkspace();
    const attachmentId = await makeId(ws);
    const inline = { name: "a.txt", contentType: "text/plain", contentBlob: Buffer.from("fine").toString("base64") };
    const body = { ...raw, attachments: [inline, pdf(attachmentId)] };
    for (const [handler, path] of [
      [send, "/api/v1/email_messages"],
      [sandboxSend, "/api/v1/sandbox/email_messages"],
    ] as const) {
      const res = await callRoute(handler, path, { authorization: ws.authorization, body });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({
        code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
        param: "attachments[1].attachmentId",
      });
      expect(res.json.error.message).toContain(attachmentId);
    }
    expect(
      await (await getDb()).select().from(emailMessages).where(eq(emailMessages.workspaceId, ws.workspace.id)),
    ).toHaveLength(0);
  });

  it("unknown and foreign ids read the same", async () => {
    const ws = await createTestWorkspace();
    const stranger = await createTestWorkspace();
    const theirs = (await uploadAttachment(stranger.workspace.id, stranger.key.id, Buffer.from("x"))).id;
    const unknown = theirs.slice(0, -1) + (theirs.endsWith("a") ? "b" : "a");
    const answers = [];
    for (const id of [theirs, unknown]) {
      const res = await callRoute(send, "/api/v1/email_messages", {
        authorization: ws.authorization,
        body: { ...raw, attachments: [pdf(id)] },
      });
      answers.push({ ...res.json.error, message: res.json.error.message.replace(id, "ID") });
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it("refuses contentBlob with attachmentId, and attachments over 40 MB together (413)", async () => {
    const ws = await createTestWorkspace();
    const a = await uploadAttachment(ws.workspace.id, ws.key.id, Buffer.from("a"));
    const both = await callRoute(send, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, attachments: [{ ...pdf(a.id), contentBlob: "eA==" }] },
    });
    expect(both.status).toBe(400);
    expect(both.json.error.param).toBe("attachments[0].attachmentId");

    const b = await uploadAttachment(ws.workspace.id, ws.key.id, Buffer.from("b"));
    await (
      await getDb()
    )
      .update(attachments)
      .set({ size: 21 * 1024 * 1024 })
      .where(eq(attachments.workspaceId, ws.workspace.id));
    const big = await callRoute(send, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, attachments: [pdf(a.id), pdf(b.id)] },
    });
    expect(big.status).toBe(413);
    expect(big.json.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", param: "attachments[1].attachmentId" });
    expect(
      await (await getDb()).select().from(emailMessages).where(eq(emailMessages.workspaceId, ws.workspace.id)),
    ).toHaveLength(0);
  });
});
