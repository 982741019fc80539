import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDbHandle, openPostgres, type Db } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { keysetPage } from "./keyset";

const m = emailMessages;
const columns = { id: m.id, createdAt: m.createdAt, status: m.status, subject: m.subject };
const opened: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of opened) await close();
});

/**
 * One database session to count its prepared statements on: the embedded database has only one; on
 * the server, a pool of one connection beside the test's own.
 */
async function oneSession(): Promise<Db> {
  const handle = await getDbHandle();
  if (handle.driver === "pglite") return handle.db;
  const own = await openPostgres(handle.connectionString!, 1);
  opened.push(own.close);
  return own.db;
}

async function preparedStatements(db: Db): Promise<number> {
  const result = (await db.execute(sql`select count(*)::int as n from pg_prepared_statements`)) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: Array<{ n: number }> }).rows) as Array<{
    n: number;
  }>;
  return rows[0].n;
}

describe("keysetPage", () => {
  it("runs an unfiltered page as prepared statements, reused, and a filtered one unnamed", async () => {
    const db = await oneSession();
    const { workspace } = await createTestWorkspace();
    const start = Date.now() - 60_000;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        await insertTestMessage(workspace.id, {
          createdAt: new Date(start + i * 1000),
          status: i % 2 ? "FAILED" : "PENDING",
          subject: `S ${i}`,
        }),
      );
    }
    const newestFirst = [...ids].reverse();
    const page = (
      filters: ReturnType<typeof eq>[],
      cursor: { direction: "after" | "before"; id: string } | null = null,
      limit = 2,
    ) =>
      keysetPage<{ id: string; createdAt: Date; status: string; subject: string }>(
        { db, table: m, createdAt: m.createdAt, id: m.id, scope: eq(m.workspaceId, workspace.id), filters, columns },
        { limit, cursor },
      );

    const before = await preparedStatements(db);
    const first = await page([]);
    expect(first.items.map((row) => row.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.items[0]).toEqual({
      id: ids[4],
      createdAt: new Date(start + 4000),
      status: "PENDING",
      subject: "S 4",
    });
    expect(first.meta).toEqual({ limit: 2, count: 2, "cursor.after": ids[3], "cursor.before": null });
    expect(await preparedStatements(db)).toBe(before + 1);
    await page([]);
    expect(await preparedStatements(db)).toBe(before + 1); // the same text: the same statement

    // A cursor page: the anchor's lookup, the page after it, and whether anything is newer.
    const second = await page([], { direction: "after", id: ids[3] });
    expect(second.items.map((row) => row.id)).toEqual([ids[2], ids[1]]);
    expect(second.meta).toEqual({ limit: 2, count: 2, "cursor.after": ids[1], "cursor.before": ids[2] });
    expect(await preparedStatements(db)).toBe(before + 4);
    const back = await page([], { direction: "before", id: ids[2] });
    expect(back.items.map((row) => row.id)).toEqual([ids[4], ids[3]]);
    expect(back.meta).toEqual({ limit: 2, count: 2, "cursor.after": ids[3], "cursor.before": null });

    // Filtered: planned for the filter's values each time, and not kept.
    const prepared = await preparedStatements(db);
    const failed = await page([eq(m.status, "FAILED")], null, 5);
    expect(failed.items.map((row) => row.id)).toEqual([ids[3], ids[1]]);
    const both = await page([eq(m.status, "FAILED"), eq(m.subject, "S 1")], null, 5);
    expect(both.items.map((row) => row.id)).toEqual([ids[1]]);
    const twoWithCursor = await page(
      [eq(m.status, "PENDING"), eq(m.subject, "S 0")],
      { direction: "after", id: ids[4] },
      5,
    );
    expect(twoWithCursor.items.map((row) => row.id)).toEqual([ids[0]]);
    expect(await preparedStatements(db)).toBe(prepared);
  });
});
