import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { getDbHandle, installDbHandle, openPgliteThread, type DbHandle } from "@/db/client";
import { executePrepared } from "@/db/execute-prepared";
import { migrateDatabase, pendingMigrations } from "@/db/migrate";
import { workspaces } from "@/db/schema";
import { databaseUnavailableCode } from "@/db/unavailable";
import { deliverMessages } from "@/lib/delivery/deliver-batch";
import { getDeliveryProvider } from "@/lib/delivery/registry";
import { stopWorkers } from "@/lib/entry/worker/worker";
import { getQueue, stopQueue } from "@/lib/records/queue/queue";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import type { RemotePglite } from "./remote-pglite";

/**
 * The embedded database in its own thread (docs/architecture.md#the-embedded-database-in-its-own-thread),
 * on real PGlite in real directories: the server's boot path opens it so (PGLITE_THREAD, on by default).
 * The test harness itself keeps PGlite in the test's thread.
 */
const dirs: string[] = [];
const opened: DbHandle[] = [];
const embedded = !process.env.DATABASE_URL;
// Opening a data directory in a thread and migrating it takes seconds on a busy machine: the first tests share one.
let shared: DbHandle;

beforeAll(async () => {
  if (embedded) shared = await openThread(tempDir());
}, 120_000);

afterEach(async () => {
  await stopWorkers();
  await stopQueue();
  for (const handle of opened.splice(0)) if (handle !== shared) await handle.close().catch(() => {});
});

afterAll(async () => {
  await shared?.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-thread-"));
  dirs.push(dir);
  return dir;
}

/** A threaded database in `dir`, a copy of the run's migrated dump when the directory is empty. */
async function openThread(dir: string): Promise<DbHandle> {
  const fresh = !fs.existsSync(path.join(dir, "PG_VERSION"));
  const dump = fresh ? new Blob([fs.readFileSync(inject("testPgliteDump"))]) : undefined;
  const handle = await openPgliteThread(dir, dump);
  opened.push(handle);
  await migrateDatabase(handle);
  return handle;
}

const remoteOf = (handle: DbHandle) => handle.pglite as RemotePglite;

describe.skipIf(!embedded)("the embedded database in its own thread", { timeout: 120_000 }, () => {
  it("opens a copy of the migrated directory with nothing pending, and answers Drizzle's queries and the named statements in and out of transactions", async () => {
    const handle = shared;
    expect(await pendingMigrations(handle)).toEqual([]);
    const { rows } = (await handle.db.execute(sql`select 1::int as one`)) as unknown as {
      rows: Array<{ one: number }>;
    };
    expect(rows).toEqual([{ one: 1 }]);
    const named = await executePrepared(handle.db, sql`select ${"a"}::text || ${"b"}::text as joined`);
    expect(named).toEqual([{ joined: "ab" }]);
    const inTransaction = await handle.db.transaction((tx) => executePrepared(tx, sql`select ${2}::int * 3 as six`));
    expect(inTransaction).toEqual([{ six: 6 }]);
  });

  it("commits a transaction, rolls one back when it throws or asks to, and keeps savepoints", async () => {
    const handle = shared;
    const id = (suffix: string) => `ws_THREAD${suffix.padStart(11, "0")}`;
    const insert = (tx: typeof handle.db, suffix: string) =>
      tx.insert(workspaces).values({ id: id(suffix), name: `Thread ${suffix}` });
    await handle.db.transaction((tx) => insert(tx as never, "1"));
    await expect(
      handle.db.transaction(async (tx) => {
        await insert(tx as never, "2");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await expect(
      handle.db.transaction(async (tx) => {
        await insert(tx as never, "3");
        tx.rollback();
      }),
    ).rejects.toThrow();
    await handle.db.transaction(async (tx) => {
      await insert(tx as never, "4");
      await tx
        .transaction(async (inner) => {
          await insert(inner as never, "5");
          inner.rollback();
        })
        .catch(() => {});
    });
    const rows = await handle.db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(sql`${workspaces.id} like 'ws_THREAD0%'`);
    expect(rows.map((row) => row.id).sort()).toEqual([id("1"), id("4")]);
  });

  it("propagates PostgreSQL's errors with their SQLSTATE and fields, and goes on afterwards", async () => {
    const handle = shared;
    const row = { id: "ws_THREADDUPLICATE0", name: "Twice" };
    await handle.db.insert(workspaces).values(row);
    const duplicate = await handle.db
      .insert(workspaces)
      .values(row)
      .catch((error: unknown) => error);
    const cause = (duplicate as { cause?: Record<string, unknown> }).cause;
    expect(cause).toMatchObject({ code: "23505", constraint: "workspaces_pkey", table: "workspaces" });
    await expect(remoteOf(handle).query("select from nowhere_at_all")).rejects.toMatchObject({ code: "42P01" });
    // An error inside a transaction rolls it back; the thread serves the next one.
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(workspaces).values({ id: "ws_THREADINSIDE00000", name: "Inside" });
        await tx.insert(workspaces).values(row);
      }),
    ).rejects.toMatchObject({ cause: { code: "23505" } });
    const inside = await handle.db.select().from(workspaces).where(eq(workspaces.id, "ws_THREADINSIDE00000"));
    expect(inside).toEqual([]);
  });

  it("delivers LISTEN's notifications to the server's thread", async () => {
    const remote = remoteOf(shared);
    const payloads: string[] = [];
    const unlisten = await remote.listen("thread_test", (payload) => payloads.push(payload));
    await remote.query("select pg_notify('thread_test', 'hello')");
    await expect.poll(() => payloads).toEqual(["hello"]);
    await unlisten();
  });

  it("runs the service on it: a message accepted and delivered through the queue", async () => {
    const harness = await getDbHandle();
    const handle = shared;
    installDbHandle(handle);
    try {
      await getQueue();
      const { workspace } = await createTestWorkspace();
      const messageId = await insertTestMessage(workspace.id);
      const outcomes = await deliverMessages([
        { job: { workspaceId: workspace.id, messageId }, context: { attempt: 0, provider: getDeliveryProvider() } },
      ]);
      expect(outcomes).toEqual([null]);
      expect((await readMessageState(messageId)).message.status).toBe("SUCCEEDED");
    } finally {
      await stopQueue();
      installDbHandle(harness);
    }
  });

  it("after close, every call fails as an unavailable database (503), and close is idempotent", async () => {
    const handle = await openThread(tempDir());
    await handle.close();
    await handle.close();
    const error = await handle.db.execute(sql`select 1`).catch((failure: unknown) => failure);
    expect(databaseUnavailableCode(error)).toBe("08006");
  });

  it("keeps what was committed when the thread dies mid-transaction, and not the rest", async () => {
    const dir = tempDir();
    const handle = await openThread(dir);
    await handle.db.insert(workspaces).values({ id: "ws_THREADCOMMITTED00", name: "Committed" });
    const open = remoteOf(handle).transaction(async (tx) => {
      await tx.query(`insert into workspaces (id, name) values ('ws_THREADUNCOMMITTD', 'Open')`);
      await remoteOf(handle).abandon(); // what a crash leaves: PGlite never closed
      await tx.query("select 1");
    });
    await expect(open).rejects.toMatchObject({ code: "08006" });
    opened.splice(opened.indexOf(handle), 1);
    const reopened = await openThread(dir);
    const ids = await reopened.db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(sql`${workspaces.id} in ('ws_THREADCOMMITTED00', 'ws_THREADUNCOMMITTD')`);
    expect(ids).toEqual([{ id: "ws_THREADCOMMITTED00" }]);
  });
});
