import { sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import postgres from "postgres";
import { getDb, getDbHandle } from "@/db/client";
import { enqueueDelivery, queueTransaction } from "@/lib/records/queue/queue";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { heldSentence, heldSentenceSql } from "@/lib/domain/workspaces/sending-state";
import { acceptMessages } from "./accept-messages";
import { parseSendRequest } from "./parse-send-request";
import { prepareMessage } from "./prepare-message";

async function rowsOf<T>(query: SQL): Promise<T[]> {
  const result = await (await getDb()).execute(query);
  return (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as T[];
}

/** Every column of a delivery job that pg-boss derives from the queue and the insert, not from the message. */
const jobColumns = (messageId: string) =>
  rowsOf<Record<string, unknown>>(sql`
    select priority, state, retry_limit, retry_delay, retry_backoff, retry_delay_max, expire_seconds, deletion_seconds,
      (keep_until - start_after)::text as retention, policy, dead_letter, heartbeat_seconds, singleton_key, singleton_on,
      group_id, group_tier, blocked, blocking, pending_dependencies, (start_after - created_on)::text as delay
    from pgboss.job where name = 'deliver-message' and data->>'messageId' = ${messageId}`);

async function prepare(
  ws: Awaited<ReturnType<typeof createTestWorkspace>>,
  body: Record<string, unknown>,
  sandbox = false,
) {
  const command = parseSendRequest({ from: "hello@example.com", subject: "Hi", bodyHtml: "<p>Hi</p>", ...body });
  return prepareMessage(await getDb(), command, {
    workspace: ws.workspace,
    sandbox,
    source: sandbox ? "SANDBOX_API" : "API",
  });
}

describe("the accept statement", () => {
  it("writes the delivery job pg-boss's own insert writes: same queue options, policy and singleton columns", async () => {
    const ws = await createTestWorkspace();
    const accepted = await prepare(ws, { to: "ada@example.org" });
    await queueTransaction((tx) => acceptMessages(tx, [accepted]));
    const direct = await insertTestMessage(ws.workspace.id);
    // A message written directly, its job through enqueueDelivery (pg-boss's insert as it is).
    await queueTransaction((tx) => enqueueDelivery(tx, { workspaceId: ws.workspace.id, messageId: direct }));
    const [ours] = await jobColumns(accepted.id);
    expect(ours).toBeDefined();
    expect(ours).toEqual((await jobColumns(direct))[0]);
  });

  it("accepts a mixed batch at once: timeline in order, outbox rows, contacts once each, jobs only for live waiting messages", async () => {
    const ws = await createTestWorkspace();
    const later = new Date(Date.now() + 3_600_000);
    const plain = await prepare(ws, { to: "Ann <ann@example.org>" });
    const twice = await prepare(ws, { to: ["ann@example.org", "BOB@example.org"] });
    const scheduled = await prepare(ws, { to: "cy@example.org", scheduledAt: later.toISOString() });
    const failed = {
      ...(await prepare(ws, { to: "dee@example.org" })),
      failure: { code: "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR" as const, sentence: "No valid recipient." },
    };
    const sandbox = await prepare(ws, { to: "eve@example.org" }, true);
    const all = [plain, twice, scheduled, failed, sandbox];
    const rows = await queueTransaction((tx) => acceptMessages(tx, all));

    const expected = {
      [plain.id]: { status: "PENDING", codes: [], types: ["email.created"], job: true },
      [twice.id]: { status: "PENDING", codes: [], types: ["email.created"], job: true },
      [scheduled.id]: {
        status: "PENDING",
        codes: ["EMAIL_MESSAGE_SCHEDULED"],
        types: ["email.created", "email.scheduled"],
        job: true,
      },
      [failed.id]: {
        status: "FAILED",
        codes: ["EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR"],
        types: ["email.created", "email.failed"],
        job: false,
      },
      [sandbox.id]: { status: "SUCCEEDED", codes: [], types: [], job: false },
    };
    for (const row of rows) {
      const want = expected[row.id]!;
      const state = await readMessageState(row.id);
      expect(row.status).toBe(want.status);
      expect(state.message.status).toBe(want.status);
      expect(state.message.erroredAt !== null).toBe(want.status === "FAILED");
      expect(state.codes).toEqual(["EMAIL_MESSAGE_CREATED", "EMAIL_MESSAGE_RENDERED", ...want.codes]);
      const outbox = await rowsOf<{ type: string; log_id: string }>(
        sql`select type, log_id from webhook_events where email_message_id = ${row.id} order by seq`,
      );
      expect(outbox.map((event) => event.type)).toEqual(want.types);
      for (const event of outbox) expect(state.events.map((log) => log.id)).toContain(event.log_id);
      expect((await jobColumns(row.id)).length).toBe(want.job ? 1 : 0);
    }
    const [job] = await rowsOf<{ start_after: string | Date }>(
      sql`select start_after from pgboss.job where data->>'messageId' = ${scheduled.id}`,
    );
    expect(new Date(job!.start_after).getTime()).toBe(scheduled.scheduledAt!.getTime());
    const people = await rowsOf<{ email: string; name: string | null }>(
      sql`select email, name from contacts where workspace_id = ${ws.workspace.id} order by email`,
    );
    expect(people).toEqual([
      { email: "ann@example.org", name: "Ann" },
      { email: "bob@example.org", name: null },
      { email: "cy@example.org", name: null },
      { email: "dee@example.org", name: null },
    ]);
  });

  it("sends pg-boss's NOTIFY with a job that is due, so a waiting worker wakes at once", async () => {
    const ws = await createTestWorkspace();
    const [{ channel }] = (await rowsOf<{ channel: string }>(
      sql`select 'pgboss_' || left(encode(sha224('pgboss'::bytea), 'hex'), 24) as channel`,
    )) as [{ channel: string }];
    const heard: string[] = [];
    const handle = await getDbHandle();
    const listener = handle.driver === "postgres" ? postgres(handle.connectionString!, { max: 1 }) : null;
    const unlisten = listener
      ? (await listener.listen(channel, (payload) => heard.push(payload))).unlisten
      : await handle.pglite!.listen(channel, (payload) => heard.push(payload));
    try {
      const message = await prepare(ws, { to: "ada@example.org" });
      await queueTransaction((tx) => acceptMessages(tx, [message]));
      const deadline = Date.now() + 5_000;
      while (!heard.includes("deliver-message") && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(heard).toContain("deliver-message");
    } finally {
      await unlisten();
      await listener?.end();
    }
  });

  it("writes the Held sentence as heldSentence does, for every kind of reason", async () => {
    for (const reason of [null, "", "Checking the list.", "Bounce rate above 5%", "a.b."]) {
      const [row] = await rowsOf<{ sentence: string }>(
        sql`select ${heldSentenceSql(sql`${reason}::text`)} as sentence`,
      );
      expect(row!.sentence).toBe(heldSentence(reason));
    }
  });
});
