import { asc, eq, getTableColumns, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import {
  emailMessageLogs,
  emailMessages,
  MESSAGE_STATUSES,
  webhookEvents,
  type MessageStatus,
} from "@/db/schema/index";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { queueTransaction } from "@/lib/records/queue/queue";
import { pauseSending } from "@/lib/domain/workspaces/pause-sending";
import { acceptMessages } from "@/lib/sending/accept-messages";
import { parseSendRequest } from "@/lib/sending/parse-send-request";
import { prepareMessage } from "@/lib/sending/prepare-message";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { EVENT_CODES, type EventCode } from "./event-codes.shared";
import { EFFECTS, type TimestampKey } from "./effects";
import { recordEvent, recordEventForMessages, recordSentEvents, type RecordEventInput } from "./record-event";
import { isSetRecordable, recordEvents } from "./record-events";

// Every writer is derived from the effects table (effects.ts): recording the same events through each
// must leave the same message, timeline and webhook outbox rows.

const t = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
const SENT = "EMAIL_MESSAGE_SENT_PROVIDER_EVENT" satisfies EventCode;

/** Everything a writer leaves for a message, without what must differ between twins (ids, write times). */
async function stateOf(messageId: string) {
  const db = await getDb();
  const [{ id: _id, updatedAt: _updatedAt, ...message }] = await db
    .select()
    .from(emailMessages)
    .where(eq(emailMessages.id, messageId));
  const logs = await db.select().from(emailMessageLogs).where(eq(emailMessageLogs.emailMessageId, messageId));
  const codeOf = new Map(logs.map((log) => [log.id, log.code]));
  const outbox = await db
    .select()
    .from(webhookEvents)
    .where(eq(webhookEvents.emailMessageId, messageId))
    .orderBy(asc(webhookEvents.seq));
  const sorted = <T>(rows: T[]) => rows.map((row) => JSON.stringify(row)).sort();
  return {
    message,
    timeline: sorted(
      logs.map(({ code, message: text, providerEventId, bot, details, createdAt, updatedAt }) => ({
        code,
        text,
        providerEventId,
        bot,
        details,
        createdAt,
        updatedAt,
      })),
    ),
    outbox: sorted(
      outbox.map(({ type, workspaceId, bot, createdAt, logId }) => ({
        type,
        workspaceId,
        bot,
        createdAt,
        code: codeOf.get(logId!),
      })),
    ),
  };
}

/** Two identical fresh messages (but their ids). */
async function twins(workspaceId: string, status: MessageStatus, sandbox = false): Promise<[string, string]> {
  const fields = { status, sandbox, source: sandbox ? ("SANDBOX_API" as const) : ("API" as const), createdAt: t(0) };
  return [await insertTestMessage(workspaceId, fields), await insertTestMessage(workspaceId, fields)];
}

async function expectSameState(one: string, other: string, context: string) {
  expect(await stateOf(other), context).toEqual(await stateOf(one));
}

describe("the effects table, through every writer", () => {
  it("records every code alike one by one (recordEvent) and in bulk (recordEvents, recordEventForMessages), from every status", async () => {
    const { workspace } = await createTestWorkspace();
    const db = await getDb();
    const cases: Array<{ input: RecordEventInput; bulkId: string; context: string }> = [];
    for (const code of EVENT_CODES) {
      const variants = [
        ...MESSAGE_STATUSES.map((status) => ({ status, bot: false, sandbox: false })),
        { status: "PENDING" as const, bot: true, sandbox: false },
        { status: "PENDING" as const, bot: false, sandbox: true },
      ];
      for (const { status, bot, sandbox } of variants) {
        const [oneId, bulkId] = await twins(workspace.id, status, sandbox);
        // The sending-state codes are the service's own: no provider id, details or bot.
        const own = !isSetRecordable({ workspaceId: workspace.id, messageId: oneId, code, message: "" });
        const extras = own ? {} : { providerEventId: `p-${code}`, details: { code }, bot };
        const input: RecordEventInput = {
          workspaceId: workspace.id,
          messageId: oneId,
          code,
          message: `${code} happened`,
          at: t(10),
          ...extras,
        };
        expect(await recordEvent(db, input)).toBe(true);
        cases.push({
          input,
          bulkId,
          context: `${code} from ${status}${bot ? " (bot)" : ""}${sandbox ? " (sandbox)" : ""}`,
        });
      }
    }
    const grouped = cases.filter(({ input }) => isSetRecordable(input));
    expect(
      await recordEvents(
        db,
        grouped.map(({ input, bulkId }) => ({ ...input, messageId: bulkId })),
      ),
    ).toEqual(grouped.map(() => true));
    for (const code of EVENT_CODES.filter((code) => !grouped.some(({ input }) => input.code === code))) {
      await expect(
        recordEvents(db, [{ workspaceId: workspace.id, messageId: cases[0]!.bulkId, code, message: "" }]),
      ).rejects.toThrow(/use recordEvent/);
      const own = cases.filter(({ input }) => input.code === code);
      await recordEventForMessages(db, {
        workspaceId: workspace.id,
        messageIds: own.map(({ bulkId }) => bulkId),
        code,
        message: `${code} happened`,
        at: t(10),
      });
    }
    expect(grouped.length).toBeGreaterThan(0);
    for (const { input, bulkId, context } of cases) await expectSameState(input.messageId, bulkId, context);
  });

  it("combines many events on one message in one statement as recordEvent does in any order, duplicates and bots included", async () => {
    const { workspace } = await createTestWorkspace();
    const db = await getDb();
    const codes = EVENT_CODES.filter((code) => isSetRecordable({ workspaceId: "", messageId: "", code, message: "" }));
    for (const status of MESSAGE_STATUSES) {
      const [oneId, bulkId] = await twins(workspace.id, status);
      const inputs: RecordEventInput[] = codes.flatMap((code, n) => [
        {
          workspaceId: workspace.id,
          messageId: oneId,
          code,
          message: "late",
          at: t(20 + n),
          providerEventId: `${code}-late`,
        },
        {
          workspaceId: workspace.id,
          messageId: oneId,
          code,
          message: "early",
          at: t(5 + n),
          providerEventId: `${code}-early`,
        },
        { workspaceId: workspace.id, messageId: oneId, code, message: "bot", at: t(1), bot: true },
      ]);
      inputs.push({ ...inputs[0]! });
      const oneByOne: boolean[] = [];
      for (const input of [...inputs].reverse()) oneByOne.push(await recordEvent(db, input));
      const bulk = await recordEvents(
        db,
        inputs.map((input) => ({ ...input, messageId: bulkId })),
      );
      expect(bulk.filter(Boolean).length).toBe(inputs.length - 1);
      expect(oneByOne.filter(Boolean).length).toBe(inputs.length - 1);
      await expectSameState(oneId, bulkId, `every code from ${status}`);
    }
  });

  it("records SENT through recordSentEvents as recordEvent does, for the messages still waiting", async () => {
    const { workspace } = await createTestWorkspace();
    const db = await getDb();
    for (const sandbox of [false, true]) {
      const [oneId, bulkId] = await twins(workspace.id, "PENDING", sandbox);
      const send = {
        workspaceId: workspace.id,
        at: t(7),
        message: "Sent through local.",
        providerEventId: "local:sent",
        details: { provider: "local" },
      };
      expect(await recordEvent(db, { ...send, messageId: oneId, code: SENT })).toBe(true);
      expect(await recordSentEvents(db, [{ ...send, messageId: bulkId, referenceId: "ref-1" }])).toEqual(
        new Set([bulkId]),
      );
      const [one, bulk] = [await stateOf(oneId), await stateOf(bulkId)];
      expect(bulk.message.referenceId).toBe("ref-1");
      expect({ ...bulk, message: { ...bulk.message, referenceId: "" } }).toEqual(one);
      expect(one.outbox.length).toBe(sandbox ? 0 : 1);
    }
  });

  it("inserts new messages with the columns their first events give them through recordEvent", async () => {
    const live = await createTestWorkspace();
    const paused = await createTestWorkspace();
    await pauseSending({ workspaceId: paused.workspace.id, reason: "Checking a list", actor: AUDIT_SYSTEM_ACTOR });
    const db = await getDb();
    const prepare = async (ws: typeof live, body: Record<string, unknown>, sandbox = false) =>
      prepareMessage(
        db,
        parseSendRequest({
          from: "hello@example.com",
          subject: "Hi",
          bodyHtml: "<p>Hi</p>",
          to: "ada@example.org",
          ...body,
        }),
        {
          workspace: ws.workspace,
          sandbox,
          source: sandbox ? "SANDBOX_API" : "API",
        },
      );
    const failure = { code: "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR" as const, sentence: "No valid recipient." };
    const prepared = [
      await prepare(live, {}),
      { ...(await prepare(live, {})), failure },
      await prepare(live, { scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }),
      await prepare(live, {}, true),
      { ...(await prepare(live, {}, true)), failure },
      await prepare(paused, {}),
      { ...(await prepare(paused, {})), failure },
    ];
    const rows = await queueTransaction((tx) => acceptMessages(tx, prepared));
    const effectKeys = [...new Set(Object.values(EFFECTS).flatMap((effect) => [effect.first, effect.last]))].filter(
      (key): key is TimestampKey => !!key,
    );
    const columns = Object.keys(getTableColumns(emailMessages)) as Array<keyof typeof emailMessages.$inferSelect>;
    const stored = await db
      .select()
      .from(emailMessages)
      .where(
        inArray(
          emailMessages.id,
          rows.map((row) => row.id),
        ),
      );
    expect(new Set(stored.map((row) => row.status))).toEqual(new Set(["PENDING", "FAILED", "SUCCEEDED", "PAUSED"]));
    for (const row of rows) {
      const [inserted] = stored.filter((message) => message.id === row.id);
      // What acceptMessages returns is what it inserted.
      for (const column of columns) expect(row[column], column).toEqual(inserted![column]);
      const twin = await insertTestMessage(row.workspaceId, {
        status: row.sandbox ? "SUCCEEDED" : "PENDING",
        sandbox: row.sandbox,
        source: row.source,
        createdAt: row.createdAt,
      });
      const events = await db
        .select()
        .from(emailMessageLogs)
        .where(eq(emailMessageLogs.emailMessageId, row.id))
        .orderBy(asc(emailMessageLogs.createdAt), asc(emailMessageLogs.id));
      for (const event of events)
        await recordEvent(db, {
          workspaceId: row.workspaceId,
          messageId: twin,
          code: event.code as EventCode,
          message: event.message,
          at: event.createdAt,
        });
      const [accepted, recorded] = [await stateOf(row.id), await stateOf(twin)];
      const effectsOf = (message: Record<string, unknown>) =>
        Object.fromEntries(["status", ...effectKeys].map((key) => [key, message[key]]));
      expect(effectsOf(accepted.message), row.id).toEqual(effectsOf(recorded.message));
      expect(accepted.timeline).toEqual(recorded.timeline);
      expect(accepted.outbox).toEqual(recorded.outbox);
    }
  });
});
