import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, inboundThreads } from "@/db/schema";
import { insertTestInboundMessage } from "@/lib/domain/inbound/testing";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { resolveThreadIn, resolveThreadsIn, type ThreadingFields } from "./resolve-thread";

const reply = (overrides: Partial<ThreadingFields> = {}): ThreadingFields => ({
  from: { address: "Ada@Example.org" },
  to: [{ address: "support@in.example.com" }],
  cc: [],
  subject: "Re: Your order",
  messageId: "<reply-1@mail.example.org>",
  inReplyTo: null,
  references: [],
  ...overrides,
});

async function resolve(
  workspaceId: string,
  parsed: ThreadingFields,
  replyToMessageId: string | null = null,
  at = new Date(),
) {
  return (await getDb()).transaction((tx) => resolveThreadIn(tx, { workspaceId, parsed, replyToMessageId, at }));
}

async function threadOfMessage(id: string) {
  const [row] = await (
    await getDb()
  )
    .select({ threadId: emailMessages.threadId })
    .from(emailMessages)
    .where(eq(emailMessages.id, id));
  return row.threadId;
}

async function thread(id: string) {
  const [row] = await (await getDb()).select().from(inboundThreads).where(eq(inboundThreads.id, id));
  return row;
}

describe("resolveThreadIn", () => {
  it("links by reply token: the original's new thread, set on the original, participants lower-cased and sorted", async () => {
    const ws = await createTestWorkspace();
    const original = await insertTestMessage(ws.workspace.id, { subject: "Your order" });
    const at = new Date("2026-11-01T10:00:00.000Z");
    const result = await resolve(ws.workspace.id, reply(), original, at);
    expect(result.originalMessageId).toBe(original);
    expect(result.threadId).toMatch(/^thr_/);
    expect(await threadOfMessage(original)).toBe(result.threadId);
    expect(await thread(result.threadId)).toMatchObject({
      workspaceId: ws.workspace.id,
      subjectKey: "your order",
      participants: ["ada@example.org", "support@in.example.com"],
      lastMessageAt: at,
    });
  });

  it("links by In-Reply-To naming our Message-ID, and a second reply joins the same thread", async () => {
    const ws = await createTestWorkspace();
    const original = await insertTestMessage(ws.workspace.id);
    const first = await resolve(ws.workspace.id, reply({ inReplyTo: `<${original}@example.com>` }));
    expect(first.originalMessageId).toBe(original);
    const second = await resolve(
      ws.workspace.id,
      reply({ inReplyTo: `<${original}@example.com>`, from: { address: "bob@example.net" }, subject: "other" }),
    );
    expect(second).toEqual(first);
    expect((await thread(first.threadId)).participants).toEqual([
      "ada@example.org",
      "bob@example.net",
      "support@in.example.com",
    ]);
  });

  it("links by References from last to first: the nearest of ours wins", async () => {
    const ws = await createTestWorkspace();
    const older = await insertTestMessage(ws.workspace.id);
    const newer = await insertTestMessage(ws.workspace.id);
    const result = await resolve(
      ws.workspace.id,
      reply({ references: [`<${older}@example.com>`, "<unknown@elsewhere.org>", `<${newer}@example.com>`] }),
    );
    expect(result.originalMessageId).toBe(newer);
  });

  it("never links to another workspace's message", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const theirs = await insertTestMessage(other.workspace.id);
    const byToken = await resolve(ws.workspace.id, reply(), theirs);
    expect(byToken.originalMessageId).toBeNull();
    const byHeader = await resolve(ws.workspace.id, reply({ inReplyTo: `<${theirs}@example.com>`, subject: "x" }));
    expect(byHeader.originalMessageId).toBeNull();
    expect(await threadOfMessage(theirs)).toBeNull();
  });

  it("joins the thread of an inbound mail it answers, and still finds our original further up References", async () => {
    const ws = await createTestWorkspace();
    const original = await insertTestMessage(ws.workspace.id);
    const first = await resolve(ws.workspace.id, reply(), original);
    const parent = await insertTestInboundMessage(ws.workspace.id, {
      messageIdHeader: "<parent@mail.example.org>",
      threadId: first.threadId,
    });
    const answer = await resolve(
      ws.workspace.id,
      reply({
        subject: "something else",
        inReplyTo: parent.messageIdHeader,
        references: [`<${original}@example.com>`, "<parent@mail.example.org>"],
      }),
    );
    expect(answer).toEqual({ threadId: first.threadId, originalMessageId: original });
    const withoutOurs = await resolve(ws.workspace.id, reply({ subject: "x", inReplyTo: "parent@mail.example.org" }));
    expect(withoutOurs).toEqual({ threadId: first.threadId, originalMessageId: null });
  });

  it("falls back to the normalised subject when the sender is in the thread, within 30 days only", async () => {
    const ws = await createTestWorkspace();
    const at = new Date("2026-11-01T10:00:00.000Z");
    const first = await resolve(ws.workspace.id, reply({ subject: "Invoice 42" }), null, at);
    expect(first.originalMessageId).toBeNull();
    const days = (n: number) => new Date(at.getTime() + n * 86_400_000);
    const same = await resolve(ws.workspace.id, reply({ subject: "AW: [EXT] invoice  42" }), null, days(29));
    expect(same.threadId).toBe(first.threadId);
    expect((await thread(first.threadId)).lastMessageAt).toEqual(days(29));
    const stranger = await resolve(
      ws.workspace.id,
      reply({ subject: "Re: Invoice 42", from: { address: "eve@example.net" } }),
      null,
      days(29),
    );
    expect(stranger.threadId).not.toBe(first.threadId);
    const late = await resolve(ws.workspace.id, reply({ subject: "Re: Invoice 42" }), null, days(29 + 31));
    expect(late.threadId).not.toBe(first.threadId);
    const otherWorkspace = await createTestWorkspace();
    const elsewhere = await resolve(otherWorkspace.workspace.id, reply({ subject: "Invoice 42" }), null, days(1));
    expect(elsewhere.threadId).not.toBe(first.threadId);
  });

  it("keeps an original's existing thread and does not move it", async () => {
    const ws = await createTestWorkspace();
    const original = await insertTestMessage(ws.workspace.id);
    const first = await resolve(ws.workspace.id, reply(), original);
    const second = await resolve(ws.workspace.id, reply({ subject: "new" }), original);
    expect(second.threadId).toBe(first.threadId);
    const rows = await (
      await getDb()
    )
      .select()
      .from(inboundThreads)
      .where(and(eq(inboundThreads.workspaceId, ws.workspace.id)));
    expect(rows).toHaveLength(1);
  });
  it("resolves a group's copies at once as if one after the other: each sees the threads the earlier ones wrote", async () => {
    const ws = await createTestWorkspace();
    const workspaceId = ws.workspace.id;
    const original = await insertTestMessage(workspaceId, { subject: "Your order" });
    const at = new Date("2026-11-02T10:00:00.000Z");
    const bob = { address: "bob@example.net" };
    const copies: Array<[ThreadingFields, string | null]> = [
      [reply(), original], // the original's new thread, adopted
      [reply({ from: bob, subject: "other", inReplyTo: `<${original}@example.com>` }), null], // joins it, Bob added
      [reply({ from: bob, subject: "Re: Your order" }), null], // by subject: the thread Bob joined in this group
      [reply({ subject: "Invoice 7" }), null], // a new conversation
      [reply({ subject: "Re: Invoice 7" }), null], // by subject: the thread created in this group
      [reply({ subject: "Re: Invoice 7", from: { address: "eve@example.net" } }), null], // a stranger: a thread of her own
    ];
    const { threads, written } = await (
      await getDb()
    ).transaction(async (tx) => {
      const group = await resolveThreadsIn(
        tx,
        copies.map(([parsed, replyToMessageId]) => ({ workspaceId, parsed, replyToMessageId, at })),
      );
      await group.written;
      return group;
    });
    await written;
    const [order, joined, bySubject, invoice, invoiceAgain, stranger] = threads;
    expect(joined).toEqual(order);
    expect(bySubject).toEqual({ threadId: order.threadId, originalMessageId: null });
    expect(order.originalMessageId).toBe(original);
    expect(await threadOfMessage(original)).toBe(order.threadId);
    expect((await thread(order.threadId)).participants).toEqual([
      "ada@example.org",
      "bob@example.net",
      "support@in.example.com",
    ]);
    expect(invoiceAgain.threadId).toBe(invoice.threadId);
    expect(new Set([order.threadId, invoice.threadId, stranger.threadId]).size).toBe(3);
    const rows = await (await getDb()).select().from(inboundThreads).where(eq(inboundThreads.workspaceId, workspaceId));
    expect(rows).toHaveLength(3);
  });
});
