import { and, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import {
  emailMessageLogs,
  emailMessages,
  inboundDedupeKeys,
  inboundMessageRaw,
  inboundMessages,
  webhookEvents,
} from "@/db/schema";
import { addDays, dayStart, daySuffix } from "@/lib/records/partitions/bounds";
import { maintainPartitions } from "@/lib/records/partitions/maintain-partitions";
import { findInboundRecipient, type InboundRecipient } from "@/lib/domain/inbound/find-recipient";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { parseInbound } from "@/lib/flows/inbound/parse/parse-inbound";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { dedupeKey } from "./receive-inbound-mail";
import { isStored, storeInboundMessage } from "./store-inbound-message";
import type { StoreInput } from "./store-inbound-group";

/** A reply from Ada to `sent` (our Message-ID in In-Reply-To) with its own Message-ID. */
async function replyInput(recipient: InboundRecipient, n: string, sent: string): Promise<StoreInput> {
  const raw = Buffer.from(
    [
      "From: Ada <ada@sender.test>",
      `To: ${recipient.address}`,
      "Subject: Re: Hello",
      `Message-ID: <group-${n}@sender.test>`,
      `In-Reply-To: <${sent}@example.com>`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      `Reply ${n}`,
    ].join("\r\n"),
  );
  const parsed = await parseInbound(raw);
  const envelope = { mailFrom: "ada@sender.test", ip: "192.0.2.10", helo: "mail.sender.test", recipients: [recipient] };
  return {
    raw,
    envelope,
    recipient,
    parsed,
    auth: { spf: "pass", dkim: "pass", dmarc: "pass", arc: "none", dmarcPolicy: null, details: {} },
    spam: { status: "not_checked", score: null, threshold: null, rules: [] },
    attachments: [],
    dedupeKey: dedupeKey(envelope.mailFrom, parsed.messageId, raw, recipient.address),
    quarantineReason: null,
  };
}

async function setup(domain: string) {
  const { workspace } = await createTestWorkspace();
  const { route } = await addTestInboundDomain(workspace.id, domain);
  await route({ pattern: `support@${domain}`, actions: [{ type: "webhook" }] });
  const lookup = await findInboundRecipient(await getDb(), `support@${domain}`);
  if (!lookup.ok) throw new Error(lookup.message);
  const sent = await insertTestMessage(workspace.id, { status: "SUCCEEDED" });
  return { workspaceId: workspace.id, recipient: lookup.recipient, sent };
}

describe("storing inbound mail in groups (lib/foundation/group-commit.ts)", () => {
  it("copies that arrive while a group is written share the next group's transaction, each stored in full", async () => {
    const { workspaceId, recipient, sent } = await setup("in-group.test");
    const inputs = await Promise.all(["1", "2", "3", "4", "5", "6"].map((n) => replyInput(recipient, n, sent)));
    // The first is written at once; the five submitted meanwhile wait for it and go together.
    const ids = await Promise.all(inputs.map((input) => storeInboundMessage(input)));
    expect(new Set(ids).size).toBe(6);
    const db = await getDb();
    const rows = await db.select().from(inboundMessages).where(eq(inboundMessages.workspaceId, workspaceId));
    expect(rows.map((row) => row.id).sort()).toEqual([...(ids as string[])].sort());
    expect(new Set(rows.map((row) => row.createdAt.getTime())).size).toBe(2);
    expect(new Set(rows.map((row) => row.threadId)).size).toBe(1);
    const [original] = await db.select().from(emailMessages).where(eq(emailMessages.id, sent));
    expect(original.threadId).toBe(rows[0].threadId);
    for (const [index, id] of ids.entries()) {
      const row = rows.find((candidate) => candidate.id === id)!;
      expect(row).toMatchObject({ originalMessageId: sent, strippedText: `Reply ${index + 1}`, status: "RECEIVED" });
      const [kept] = await db.select().from(inboundMessageRaw).where(eq(inboundMessageRaw.inboundMessageId, id!));
      expect(Buffer.from(kept.raw).equals(inputs[index].raw)).toBe(true);
      const events = await db.select().from(webhookEvents).where(eq(webhookEvents.inboundMessageId, id!));
      expect(events.map((event) => event.type).sort()).toEqual(["email.received", "email.replied"]);
    }
    const replied = await db
      .select()
      .from(emailMessageLogs)
      .where(and(eq(emailMessageLogs.emailMessageId, sent), eq(emailMessageLogs.code, "EMAIL_MESSAGE_REPLIED")));
    expect(replied.map((log) => log.providerEventId).sort()).toEqual(ids.map((id) => `inbound:${id}`).sort());
  });

  it("a group with a failing copy is written again copy by copy: the failing one fails alone", async () => {
    const { workspaceId, recipient, sent } = await setup("in-group-fail.test");
    const stored = await replyInput(recipient, "stored", sent);
    expect(await storeInboundMessage(stored)).toMatch(/^inm_/);
    const first = await replyInput(recipient, "first", sent);
    const good = await replyInput(recipient, "good", sent);
    const twice = await replyInput(recipient, "twice", sent);
    // Another workspace's id that does not exist: its thread and row break a foreign key.
    const broken = await replyInput({ ...recipient, workspaceId: "ws_0000000000000000" }, "broken", sent);
    const results = await Promise.allSettled(
      [first, good, stored, broken, twice, twice].map((input) => storeInboundMessage(input)),
    );
    const [firstId, goodId, again, failed, twiceId, twiceAgain] = results;
    expect(firstId).toMatchObject({ status: "fulfilled", value: expect.stringMatching(/^inm_/) });
    expect(goodId).toMatchObject({ status: "fulfilled", value: expect.stringMatching(/^inm_/) });
    expect(again).toEqual({ status: "fulfilled", value: null });
    expect(failed.status).toBe("rejected");
    expect(twiceId).toMatchObject({ status: "fulfilled", value: expect.stringMatching(/^inm_/) });
    expect(twiceAgain).toEqual({ status: "fulfilled", value: null });
    const db = await getDb();
    const rows = await db.select().from(inboundMessages).where(eq(inboundMessages.workspaceId, workspaceId));
    expect(rows.map((row) => row.strippedText).sort()).toEqual([
      "Reply first",
      "Reply good",
      "Reply stored",
      "Reply twice",
    ]);
    const received = await db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, workspaceId));
    expect(received.filter((event) => event.type === "email.received")).toHaveLength(4);
    expect(received.filter((event) => event.type === "email.replied")).toHaveLength(4);
  });
});

describe("inbound mail by day (migration 0029)", () => {
  afterEach(() => vi.useRealTimers());

  it("stores a mail in its day's partitions, and a retry of it a day later is still a duplicate", async () => {
    await maintainPartitions();
    const { workspaceId, recipient, sent } = await setup("by-day.test");
    const input = await replyInput(recipient, "by-day", sent);
    // Past the legacy range the first run seals (two days ahead), within the week of days made ahead.
    const day = addDays(dayStart(new Date()), 3);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(day.getTime() + 23 * 3600_000));
    const id = await storeInboundMessage(input);
    vi.setSystemTime(new Date(day.getTime() + 25 * 3600_000));
    expect(await storeInboundMessage(input)).toBeNull();
    vi.useRealTimers();
    const db = await getDb();
    const leaf = async (table: string, column: string) =>
      rowsOf(
        await db.execute(
          sql`select tableoid::regclass::text as leaf from ${sql.identifier(table)} where ${sql.identifier(column)} = ${id}`,
        ),
      ).map((row) => row.leaf);
    expect(await leaf("inbound_messages", "id")).toEqual([`inbound_messages_${daySuffix(day)}`]);
    expect(await leaf("inbound_message_raw", "inbound_message_id")).toEqual([`inbound_message_raw_${daySuffix(day)}`]);
    const keys = await db.select().from(inboundDedupeKeys).where(eq(inboundDedupeKeys.workspaceId, workspaceId));
    expect(keys).toEqual([expect.objectContaining({ dedupeKey: input.dedupeKey, inboundMessageId: id })]);
    expect(await isStored(workspaceId, input.dedupeKey)).toBe(true);
  });
});
