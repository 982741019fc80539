import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { localInbox } from "@/db/schema";
import { buildMime } from "@/lib/delivery/mime/build-mime";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { getInboxMessage } from "./get-inbox-message";
import { listInboxMessages, parseInboxListQuery } from "./list-inbox-messages";
import { parseInboxMime } from "./parse-inbox-mime";

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));

/** A message as the local provider would have delivered it: the real MIME builder, stored in local_inbox. */
async function deliverLocally(workspaceId: string, subject: string, second: number, options: { mime?: string } = {}) {
  const id = await insertTestMessage(workspaceId, { subject, createdAt: at(second), status: "SUCCEEDED" });
  const mime = await buildMime(
    id,
    {
      from: "Demo <hello@example.com>",
      to: ["Ada <ada@example.org>"],
      cc: [],
      bcc: [],
      replyTo: null,
      subject,
      html: `<p>Hello <b>${subject}</b></p>`,
      text: `Hello ${subject}`,
      references: null,
      attachments: [{ filename: "invoice.txt", contentType: "text/plain", content: Buffer.from("abc") }],
    },
    at(second),
  );
  await (await getDb()).insert(localInbox).values({
    emailMessageId: id,
    workspaceId,
    envelopeFrom: mime.envelope.from,
    envelopeTo: mime.envelope.to,
    mime: options.mime ?? mime.raw,
    createdAt: at(second + 1),
  });
  return id;
}

const query = (params: Record<string, string> = {}) => parseInboxListQuery(new URLSearchParams(params));

describe("local inbox", () => {
  it("lists the workspace's deliveries newest first, keyset paged both ways", async () => {
    const { workspace } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift(await deliverLocally(workspace.id, `m${i}`, i * 10));
    await insertTestMessage(workspace.id, { subject: "never delivered", createdAt: at(100) });
    await deliverLocally(other.id, "someone else's", 200);

    const first = await listInboxMessages(workspace.id, query({ limit: "2" }));
    expect(first.items.map((item) => item.messageId)).toEqual(ids.slice(0, 2));
    expect(first.items[0]).toEqual({
      messageId: ids[0],
      from: "hello@example.com",
      to: ["Ada <ada@example.org>"],
      subject: "m4",
      date: at(40),
      deliveredAt: at(41),
      purged: false,
    });
    expect(first.newerCursor).toBeNull();
    const second = await listInboxMessages(workspace.id, query({ limit: "2", "cursor.after": first.olderCursor! }));
    expect(second.items.map((item) => item.messageId)).toEqual(ids.slice(2, 4));
    const last = await listInboxMessages(workspace.id, query({ limit: "2", "cursor.after": second.olderCursor! }));
    expect(last.items.map((item) => item.messageId)).toEqual(ids.slice(4));
    expect(last.olderCursor).toBeNull();
    const back = await listInboxMessages(workspace.id, query({ limit: "2", "cursor.before": last.newerCursor! }));
    expect(back.items.map((item) => item.messageId)).toEqual(ids.slice(2, 4));
    expect(back.newerCursor).toBe(ids[2]);

    const empty = await createTestWorkspace();
    expect(await listInboxMessages(empty.workspace.id, query())).toEqual({
      items: [],
      olderCursor: null,
      newerCursor: null,
    });
  });

  it("refuses another workspace's message as a cursor and as a message", async () => {
    const { workspace } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const foreign = await deliverLocally(other.id, "theirs", 1);
    await expect(listInboxMessages(workspace.id, query({ "cursor.after": foreign }))).rejects.toMatchObject({
      param: "cursor.after",
    });
    expect(await getInboxMessage(workspace.id, foreign)).toBeNull();
    expect(await getInboxMessage(workspace.id, newId("message"))).toBeNull();
    expect(await getInboxMessage(workspace.id, "../etc")).toBeNull();
    expect((await getInboxMessage(other.id, foreign))?.messageId).toBe(foreign);
  });

  it("reads a delivered message like a mail client, and says when its MIME was purged", async () => {
    const { workspace } = await createTestWorkspace();
    const id = await deliverLocally(workspace.id, "Your invoice", 5);
    const stored = await getInboxMessage(workspace.id, id);
    expect(stored).toMatchObject({
      messageId: id,
      envelopeFrom: "hello@example.com",
      envelopeTo: ["ada@example.org"],
      deliveredAt: at(6),
    });
    const mail = await parseInboxMime(stored!.mime);
    expect(mail).toMatchObject({
      from: "Demo <hello@example.com>",
      to: "Ada <ada@example.org>",
      subject: "Your invoice",
      date: at(5),
      attachments: [{ filename: "invoice.txt", contentType: "text/plain", size: 3, inline: false }],
    });
    expect(mail.html).toContain("<b>Your invoice</b>");
    expect(mail.text.trim()).toBe("Hello Your invoice");
    expect(mail.messageIdHeader).toBe(`<${id}@example.com>`);

    await deliverLocally(workspace.id, "purged", 9, { mime: "" });
    const [purged] = (await listInboxMessages(workspace.id, query())).items;
    expect(purged).toMatchObject({ subject: "purged", purged: true });
  });
});
