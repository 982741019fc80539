import { expect } from "vitest";
import { getDb } from "@/db/client";
import { inboundMessageRaw } from "@/db/schema";
import { getAttachmentStorage, storageKey as attachmentStorageKey } from "@/lib/domain/attachments/storage";
import { insertTestInboundMessage } from "@/lib/domain/inbound/testing";
import { newId } from "@/lib/foundation/ids";
import { resolveThreadIn } from "@/lib/flows/inbound/threads/resolve-thread";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";

/**
 * Reading received mail, threads and the reply API over the route table: a sent message, a reply to it stored as the
 * pipeline stores one (threaded by In-Reply-To), then the API's view of both and an answer in the same thread.
 */
export async function inboundReplyScenario() {
  const ws = await createTestWorkspace();
  const sent = await callApi("/v1/email_messages", {
    authorization: ws.authorization,
    body: {
      from: "Acme <hello@example.com>",
      to: "Ada <ada@example.org>",
      subject: "Your order",
      bodyHtml: "<p>Hi</p>",
      metadata: { order: "42" },
    },
  });
  expect(sent.status).toBe(201);
  const original: string = sent.json.data.id;
  const db = await getDb();
  const parsed = {
    from: { address: "ada@example.org" },
    to: [{ address: "hello@example.com" }],
    cc: [],
    subject: "Re: Your order",
    inReplyTo: `<${original}@example.com>`,
    references: [`<${original}@example.com>`],
  };
  const thread = await db.transaction((tx) =>
    resolveThreadIn(tx, { workspaceId: ws.workspace.id, parsed, replyToMessageId: null, at: new Date() }),
  );
  const reply = await insertTestInboundMessage(ws.workspace.id, {
    threadId: thread.threadId,
    originalMessageId: thread.originalMessageId,
    fromAddress: "ada@example.org",
    replyTo: [{ address: "ada+replies@example.org", name: null }],
    subject: "Re: Your order",
    messageIdHeader: "<reply-1@mail.example.org>",
    inReplyTo: `<${original}@example.com>`,
    references: [`<${original}@example.com>`],
    headers: [["Subject", "Re: Your order"]],
    attachments: [await storedAttachment(ws.workspace.id)],
  });
  await db.insert(inboundMessageRaw).values({
    inboundMessageId: reply.id,
    workspaceId: ws.workspace.id,
    raw: Buffer.from("Subject: Re: Your order\r\n\r\nYes.\r\n"),
  });
  return { ws, original, reply, threadId: thread.threadId };
}

/** A file in the attachment storage, as the pipeline keeps a received attachment. */
export async function storedAttachment(workspaceId: string) {
  const id = newId("inboundAttachment");
  const storageKey = attachmentStorageKey(workspaceId, id);
  await (await getAttachmentStorage()).write(storageKey, Buffer.from("%PDF-1.4 test"), "application/pdf");
  return {
    id,
    filename: "invoice.pdf",
    contentType: "application/pdf",
    size: 13,
    contentId: null,
    inline: false,
    storageKey,
  };
}
