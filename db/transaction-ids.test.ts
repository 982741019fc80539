import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { GET as ready } from "@/app/api/health/ready/route";
import { getDb } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi, callRoute } from "@/lib/testing/http";
import { waitFor } from "@/lib/testing/wait-for";
import {
  idsBehind,
  passStoredTransactionIds,
  readTransactionHorizon,
  spendTransactionIds,
  TRANSACTION_ID_COLUMNS,
} from "./transaction-ids";

/**
 * A restore onto a new cluster, simulated: the rows' ids are moved ahead of this database's counter,
 * as if written by an older cluster that had spent more. On PostgreSQL the counter is the shared
 * test server's, so other files move it meanwhile: assertions allow for ids spent by others.
 */
const forgetCachedReadiness = () =>
  void delete processSingleton<{ readiness?: unknown }>("health.readiness", () => ({})).readiness;

afterEach(forgetCachedReadiness);

async function currentId(): Promise<number> {
  const [row] = rowsOf(await (await getDb()).execute(sql`select pg_current_xact_id()::text as id`));
  return Number(row.id);
}

/** A workspace with a sent message: its timeline wrote webhook_events rows. */
async function workspaceWithEvents() {
  const ws = await createTestWorkspace();
  const sent = await callApi("/v1/email_messages", {
    authorization: ws.authorization,
    body: { from: "hello@example.com", to: "ada@example.org", subject: "Hi", bodyHtml: "<p>hi</p>" },
  });
  expect(sent.status).toBeLessThan(300);
  return ws;
}

async function feed(authorization: string): Promise<string[]> {
  const answer = await callApi("/v1/events", { authorization });
  expect(answer.status).toBe(200);
  return (answer.json.data as Array<{ type: string }>).map((event) => event.type);
}

/** Moves the workspace's events (and the fan-out's cursor with them) to ids the database has not reached. */
async function moveAhead(workspaceId: string, gap: number): Promise<number> {
  const db = await getDb();
  const { next } = await readTransactionHorizon(db);
  await db.execute(sql`update webhook_events set tx_id = ${next + gap} where workspace_id = ${workspaceId}`);
  await db.execute(sql`update webhook_dispatch_state set tx_id = ${next + gap}, seq = 0 where id = 1`);
  return next + gap;
}

describe("transaction ids stored in rows (db/transaction-ids.ts)", () => {
  it("knows every column that stores pg_current_xact_id()", async () => {
    const columns = rowsOf(
      await (
        await getDb()
      ).execute(sql`select table_name as table, column_name as column from information_schema.columns
        where table_schema = 'public' and (column_name = 'tx_id' or column_default like '%pg_current_xact_id%')
          and table_name not in (select relname from pg_class where relispartition) -- a partition's rows are its parent's
        order by table_name, column_name`),
    );
    const listed = [...TRANSACTION_ID_COLUMNS].sort((a, b) => a.table.localeCompare(b.table));
    expect(columns).toEqual(listed);
  });

  it("spends ids as committed transactions: the next pg_current_xact_id() is past them", async () => {
    const before = await currentId();
    await spendTransactionIds(await getDb(), 25_000);
    const after = await currentId();
    expect(after - before).toBeGreaterThanOrEqual(25_001);
    // Embedded, nothing else spends: exactly the 25,000 and the second read's own.
    if (!process.env.DATABASE_URL) expect(after - before).toBe(25_001);
  });

  it("a few ids behind: spends them, and the feed serves the restored events again", async () => {
    const ws = await workspaceWithEvents();
    // On a shared server an event is served once every older transaction has ended (docs/webhooks.md#the-event-feed).
    const types = await waitFor(async () => (await feed(ws.authorization)).length > 0 && feed(ws.authorization), {
      what: "the message's events in the feed",
    });

    const stored = await moveAhead(ws.workspace.id, 40_000);
    expect(await feed(ws.authorization)).toEqual([]); // the silence a restore onto a new cluster caused
    const db = await getDb();
    expect(idsBehind(await readTransactionHorizon(db))).toBeGreaterThan(0);

    const result = await passStoredTransactionIds(db);
    expect(result.outcome).toBe("advanced");
    if (result.outcome !== "advanced") return;
    expect(result.horizon.stored).toBe(stored);
    expect(result.spent).toBe(stored - result.horizon.next + 1);
    expect(idsBehind(await readTransactionHorizon(db))).toBe(0);
    await waitFor(async () => (await feed(ws.authorization)).join() === types.join(), {
      what: "the restored events in the feed",
    });
    expect(await currentId()).toBeGreaterThan(stored); // a new event sorts after the fan-out's cursor

    expect((await callRoute(ready, "/api/health/ready")).json.checks.transactionIds.status).toBe("ok");
    expect((await passStoredTransactionIds(db)).outcome).toBe("past");
  });

  it("many ids behind: spends none, names the epoch for pg_resetwal, and readiness fails naming the check", async () => {
    const ws = await workspaceWithEvents();
    const db = await getDb();
    const stored = await moveAhead(ws.workspace.id, 5 * 2 ** 32);
    const epoch = Math.floor(stored / 2 ** 32) + 1; // (max >> 32) + 1
    expect(epoch).toBe(6); // the test server has spent fewer than 2^32 ids

    const result = await passStoredTransactionIds(db);
    expect(result).toMatchObject({ outcome: "behind", epoch, horizon: { stored } });
    expect(idsBehind(await readTransactionHorizon(db))).toBeGreaterThan(1_000_000); // nothing was spent

    const res = await callRoute(ready, "/api/health/ready");
    expect(res.status).toBe(503);
    expect(res.json.status).toBe("fail");
    expect(res.json.checks.transactionIds.status).toBe("fail");
    expect(res.json.checks.transactionIds.error).toContain(`pg_resetwal --epoch=${epoch} -D`);
    expect(res.json.checks.transactionIds.error).toContain(`transaction ids up to ${stored}`);
    expect(res.json.checks.database.status).toBe("ok");

    // Back below the counter, as after the remedy: ready again.
    await db.execute(sql`update webhook_events set tx_id = 1 where workspace_id = ${ws.workspace.id}`);
    await db.execute(sql`update webhook_dispatch_state set tx_id = 1, seq = 0 where id = 1`);
    forgetCachedReadiness();
    expect((await callRoute(ready, "/api/health/ready")).status).toBe(200);
  });
});
