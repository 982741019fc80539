import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as ready } from "@/app/api/health/ready/route";
import { closeDb, getDb, installDbHandle, openPostgres } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { readTransactionHorizon } from "@/db/transaction-ids";
import { createEndpoint } from "@/lib/flows/webhooks/manage-endpoints";
import { fanOutEverything, manualClock } from "@/lib/flows/webhooks/testing";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { stopQueue } from "@/lib/records/queue/queue";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi, callRoute } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";
import { waitFor } from "@/lib/testing/wait-for";
import { cli, recreateEmptyDatabase } from "../testing";

/**
 * `db restore` onto a PostgreSQL cluster whose transaction ids are behind the backup's (a new
 * cluster): simulated by moving the rows' ids ahead of this cluster's counter before the backup,
 * then dropping and recreating the database and restoring (docs/backups.md#restoring-onto-a-new-server).
 */
const postgresUrl = process.env.DATABASE_URL;
const backups = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-restore-xids-"));
afterAll(() => fs.rmSync(backups, { recursive: true, force: true }));

async function events(authorization: string): Promise<unknown[]> {
  const answer = await callApi("/v1/events", { authorization });
  expect(answer.status).toBe(200);
  return answer.json.data;
}

const forgetCachedReadiness = () =>
  void delete processSingleton<{ readiness?: unknown }>("health.readiness", () => ({})).readiness;

afterEach(forgetCachedReadiness);
beforeAll(() => useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true" }));
afterAll(() => useSettings({ WEBHOOKS_ALLOW_PRIVATE: undefined, WEBHOOKS_ALLOW_HTTP: undefined }));

/** A sent message (its events in the feed), the rows' ids moved `gap` past the counter, backed up, the database lost. */
async function backUpAheadOfCluster(gap: number) {
  const ws = await createTestWorkspace();
  await createEndpoint(ws.workspace.id, { url: "http://127.0.0.1:9/hooks", eventTypes: ["email.created"] }, "system");
  const sent = await callApi("/v1/email_messages", {
    authorization: ws.authorization,
    body: { from: "hello@example.com", to: "ada@example.org", subject: "Kept", bodyHtml: "<p>kept</p>" },
  });
  expect(sent.status).toBeLessThan(300);
  const feed = await waitFor(async () => (await events(ws.authorization)).length > 0 && events(ws.authorization), {
    what: "the message's events in the feed",
  });

  const db = await getDb();
  const { next } = await readTransactionHorizon(db);
  const stored = next + gap;
  await db.execute(sql`update webhook_events set tx_id = ${stored}`);
  // The fan-out had dispatched every event: its cursor is the last one.
  await db.execute(
    sql`update webhook_dispatch_state set tx_id = ${stored}, seq = (select max(seq) from webhook_events) where id = 1`,
  );
  await stopQueue();

  const file = path.join(backups, `postwerk-${gap}.dump`);
  const backup = await cli(["db", "backup", file]);
  expect(backup.code, backup.stderr).toBe(0);
  await closeDb();
  await recreateEmptyDatabase(postgresUrl!);
  return { ws, feed, stored, file };
}

describe.skipIf(!postgresUrl)("db restore onto a cluster behind the backup's transaction ids", () => {
  it("a few behind: spends them, says so, and the feed and the fan-out carry on", async () => {
    const { ws, feed, stored, file } = await backUpAheadOfCluster(30_000);

    const restored = await cli(["db", "restore", file]);
    expect(restored.code, restored.stderr).toBe(0);
    const spent = /transaction ids were (\d+) behind the restored rows' \(up to (\d+); its next was (\d+)\)/.exec(
      restored.stdout,
    );
    expect(spent, restored.stdout).not.toBeNull();
    expect(Number(spent![2])).toBe(stored);
    expect(Number(spent![1])).toBe(stored - Number(spent![3]) + 1);
    expect(restored.stdout).toContain(`spent ${spent![1]} so webhooks and the event feed carry on`);

    installDbHandle(await openPostgres(postgresUrl!, 5));
    // Served once every older transaction on the shared server has ended (docs/webhooks.md#the-event-feed).
    await waitFor(async () => JSON.stringify(await events(ws.authorization)) === JSON.stringify(feed), {
      what: "the restored events in the feed",
    });
    // A new message's events sort after the fan-out's restored cursor: the fan-out picks them up.
    const again = await callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: { from: "hello@example.com", to: "bob@example.org", subject: "New", bodyHtml: "<p>new</p>" },
    });
    expect(again.status).toBeLessThan(300);
    await fanOutEverything(ws.workspace.id, manualClock());
    const db = await getDb();
    const [cursor] = rowsOf(await db.execute(sql`select tx_id::text as tx from webhook_dispatch_state`));
    expect(Number(cursor.tx)).toBeGreaterThan(stored);
    const [{ deliveries }] = rowsOf(
      await db.execute(
        sql`select count(*)::int as deliveries from webhook_deliveries where workspace_id = ${ws.workspace.id}`,
      ),
    );
    expect(deliveries).toBeGreaterThan(0);
    expect((await callRoute(ready, "/api/health/ready")).json.checks.transactionIds.status).toBe("ok");
  });

  it("many behind: restores, then fails with the pg_resetwal epoch and data directory; readiness names it", async () => {
    const { stored, file } = await backUpAheadOfCluster(5 * 2 ** 32);
    const epoch = Math.floor(stored / 2 ** 32) + 1;
    expect(epoch).toBe(6);

    const restored = await cli(["db", "restore", file, "--json"]);
    expect(restored.code).toBe(1);
    const result = JSON.parse(restored.stdout);
    expect(result).toMatchObject({ driver: "postgres", pendingMigrations: 0, transactionIds: { stored, spent: 0 } });
    installDbHandle(await openPostgres(postgresUrl!, 5));
    const [{ directory }] = rowsOf(await (await getDb()).execute(sql`show data_directory`)).map((row) => ({
      directory: String(row.data_directory),
    }));
    const error = JSON.parse(restored.stderr).error;
    expect(error.code).toBe("CONFLICT");
    expect(error.message).toContain(`Restored, but the rows hold transaction ids up to ${stored}`);
    expect(error.message).toContain(`\`pg_resetwal --epoch=${epoch} -D ${directory}\``);

    const res = await callRoute(ready, "/api/health/ready");
    expect(res.status).toBe(503);
    expect(res.json.checks.transactionIds.status).toBe("fail");
    expect(res.json.checks.transactionIds.error).toContain(`pg_resetwal --epoch=${epoch} -D`);
  });
});
