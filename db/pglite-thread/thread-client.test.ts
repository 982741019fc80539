import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { build } from "esbuild";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPgliteOnThread, type DbHandle } from "../client";
import { compileOnce, executeCompiled, executePrepared } from "../execute-prepared";
import { migrateDatabase } from "../migrate";
import { workspaces } from "../schema";
import { databaseUnavailableCode } from "../unavailable";
import { createBoss, installQueue } from "@/lib/records/queue/queue";
import type { DatabaseThread, StartDatabaseThread } from "./thread-client";

const root = path.resolve(import.meta.dirname, "../..");
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The thread's entry bundled as `npm run build` bundles it, beside node_modules so it finds PGlite. */
async function bundleThread(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(root, "node_modules", ".cache-pglite-thread-"));
  const outfile = path.join(dir, "pglite-thread.mjs");
  await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, "db/pglite-thread/thread-main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    conditions: ["react-server"],
    tsconfig: path.join(root, "tsconfig.json"),
    external: ["@electric-sql/pglite"],
    logLevel: "warning",
  });
  return outfile;
}

describe("the embedded database on its own thread", () => {
  let bundle: string;
  let dataDir: string;
  let handle: DbHandle;
  const threads: Worker[] = [];
  const start: StartDatabaseThread = (workerData) => {
    const worker = new Worker(bundle, { workerData });
    threads.push(worker);
    return worker as unknown as DatabaseThread;
  };

  beforeAll(async () => {
    bundle = await bundleThread();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-thread-"));
    handle = await openPgliteOnThread(start, path.join(dataDir, "pglite"));
    await migrateDatabase(handle);
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
    await Promise.all(threads.map((thread) => thread.terminate()));
    fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("reads and writes through Drizzle as the in-process driver does: timestamps, JSON, arrays, bytes", async () => {
    const { db } = handle;
    const [created] = await db.insert(workspaces).values({ id: "ws_thread_1", name: "Thread" }).returning();
    expect(created.createdAt).toBeInstanceOf(Date);
    const [read] = await db.select().from(workspaces).where(eq(workspaces.id, "ws_thread_1"));
    expect(read).toEqual(created);
    const [row] = rowsOf<{ at: string; doc: unknown; list: number[]; bytes: Uint8Array; big: unknown }>(
      await db.execute(
        sql`select now() as at, ${JSON.stringify({ a: [1, "b"] })}::jsonb as doc, array[1,2,3] as list, '\\x0102'::bytea as bytes, 9007199254740993::int8 as big`,
      ),
    );
    expect(typeof row.at).toBe("string"); // raw, as Drizzle reads timestamps
    expect(row.doc).toEqual({ a: [1, "b"] });
    expect(row.list).toEqual([1, 2, 3]);
    expect([...row.bytes]).toEqual([1, 2]);
    expect(String(row.big)).toBe("9007199254740993");
  });

  it("commits a transaction, rolls one back on an error, and rolls back a savepoint alone", async () => {
    const { db } = handle;
    await db.transaction(async (tx) => {
      await tx.insert(workspaces).values({ id: "ws_thread_2", name: "Kept" });
      await expect(
        tx.transaction(async (inner) => {
          await inner.insert(workspaces).values({ id: "ws_thread_3", name: "Savepoint" });
          throw new Error("undo the savepoint");
        }),
      ).rejects.toThrow("undo the savepoint");
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(workspaces).values({ id: "ws_thread_4", name: "Gone" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const ids = (await db.select({ id: workspaces.id }).from(workspaces)).map((row) => row.id);
    expect(ids).toContain("ws_thread_2");
    expect(ids).not.toContain("ws_thread_3");
    expect(ids).not.toContain("ws_thread_4");
  });

  it("passes PostgreSQL's error fields across: the code and the constraint", async () => {
    const failure = await handle.db
      .insert(workspaces)
      .values({ id: "ws_thread_2", name: "Twice" })
      .then(
        () => null,
        (error: unknown) => error,
      );
    let current = failure as { code?: string; constraint?: string; cause?: unknown } | null;
    while (current && !current.code) current = current.cause as typeof current;
    expect(current).toMatchObject({ code: "23505", constraint: "workspaces_pkey" });
    // A parameter that cannot cross to the thread fails its statement alone.
    await expect(handle.db.execute(sql`select ${(() => 1) as unknown as number} as n`)).rejects.toThrow();
    // The transaction it was not in is unharmed: the next statement runs.
    expect(rowsOf<{ n: number }>(await handle.db.execute(sql`select 1 as n`))[0].n).toBe(1);
  });

  it("runs named prepared statements, standalone and inside a transaction", async () => {
    const count = compileOnce(
      sql`select count(*)::int as n from workspaces where id like ${sql.placeholder("prefix")}`,
    );
    expect(rowsOf<{ n: number }>(await executeCompiled(handle.db, count, { prefix: "ws_thread_%" }))[0].n).toBe(2);
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(workspaces).values({ id: "ws_thread_5", name: "Inside" });
        const seen = rowsOf<{ n: number }>(await executePrepared(tx, sql`select count(*)::int as n from workspaces`));
        expect(seen[0].n).toBeGreaterThanOrEqual(3);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(rowsOf<{ n: number }>(await executeCompiled(handle.db, count, { prefix: "ws_thread_%" }))[0].n).toBe(2);
  });

  it("serves many interleaved transactions and statements, each transaction whole", async () => {
    const { db } = handle;
    await db.execute(sql`create table thread_counts (n int not null)`);
    const writers = Array.from({ length: 40 }, (_, n) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_counts values (${n})`);
        await new Promise((resolve) => setTimeout(resolve, n % 3));
        await tx.execute(sql`insert into thread_counts values (${-n - 1})`);
      }),
    );
    const readers = Array.from({ length: 40 }, () =>
      db
        .execute(sql`select count(*)::int as n from thread_counts`)
        .then((result) => rowsOf<{ n: number }>(result)[0].n),
    );
    await Promise.all(writers);
    // A reader waits for an open transaction: it never sees half of one.
    for (const seen of await Promise.all(readers)) expect(seen % 2).toBe(0);
    const sums = rowsOf<{ n: number; total: number }>(
      await db.execute(sql`select count(*)::int as n, sum(n)::int as total from thread_counts`),
    );
    expect(sums[0]).toEqual({ n: 80, total: -40 });
  });

  it("carries pg-boss: a job sent is fetched once, and notifications reach a listener", async () => {
    const boss = createBoss(handle);
    await boss.start();
    try {
      await installQueue(boss);
      await boss.createQueue("thread-check");
      const id = await boss.send("thread-check", { hello: "thread" });
      const [job] = await boss.fetch<{ hello: string }>("thread-check");
      expect(job).toMatchObject({ id, data: { hello: "thread" } });
      expect(await boss.fetch("thread-check")).toEqual([]);
    } finally {
      await boss.stop({ graceful: false, close: false });
    }
    const heard: string[] = [];
    const unlisten = await handle.pglite!.listen("thread_channel", (payload) => heard.push(payload));
    await handle.db.execute(sql`select pg_notify('thread_channel', 'ping')`);
    await expect.poll(() => heard).toEqual(["ping"]);
    await unlisten();
  });

  it("answers as a lost connection once the thread is gone, and reports a data directory it cannot open", async () => {
    const other = await openPgliteOnThread(start, "memory://");
    await threads.at(-1)!.terminate();
    const failure = await other.db.execute(sql`select 1`).then(
      () => null,
      (error: unknown) => error,
    );
    expect(databaseUnavailableCode(failure)).toBe("08006");
    await other.close();

    const notADirectory = path.join(dataDir, "a-file");
    fs.writeFileSync(notADirectory, "not a database");
    await expect(openPgliteOnThread(start, `${notADirectory}/pglite`)).rejects.toThrow();
  });
});
