import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { fromDrizzle } from "pg-boss";
import { describe, expect } from "vitest";
import { rowsOf } from "@/db/column-rows";
import { getQueue, queueTransaction, QUEUES } from "@/lib/records/queue/queue";
import { itIsTheVersionWrittenFor, itStillHolds } from "./canary";
import { captureJobInsert, PG_BOSS } from "./pg-boss";

/**
 * The captured text, whitespace collapsed, as pg-boss 12.35.0 writes it for the delivery queue. Any
 * change to it (a new column, another policy, another NOTIFY) is for a person to read before the
 * accept statement carries it.
 */
const WRITTEN_FOR_SHA256 = "2cb8551457f3baa6353231743e507096dfa6b5023128f7da87f842d257955055";

const collapsed = (text: string) => text.replace(/\s+/g, " ").trim();

describe("pg-boss canary: the delivery job insert, captured and spliced", () => {
  itIsTheVersionWrittenFor(PG_BOSS);

  itStillHolds(PG_BOSS, "the captured insert splits into CTEs around its one parameter, with the NOTIFY", async () => {
    const { before, after, touch } = await captureJobInsert(await getQueue(), QUEUES.deliverMessage);
    expect(collapsed(before)).toMatch(/^ins AS \( INSERT INTO pgboss\.\w+ \(/);
    expect(collapsed(after)).toMatch(
      /notified AS \( SELECT pg_notify\(.*\) FROM ins WHERE start_after <= pgboss\.job_now\(\) LIMIT 1 \)$/,
    );
    expect(touch).toBe("(SELECT count(*) FROM notified)");
  });

  itStillHolds(PG_BOSS, "the captured insert is the text this version was read for", async () => {
    const { before, after, touch } = await captureJobInsert(await getQueue(), QUEUES.deliverMessage);
    const text = collapsed(`${before}$1${after}${touch}`);
    expect(createHash("sha256").update(text).digest("hex"), `pg-boss's delivery job insert is now:\n${text}`).toBe(
      WRITTEN_FOR_SHA256,
    );
  });

  itStillHolds(PG_BOSS, "the spliced insert writes the job row boss.insert writes", async () => {
    const boss = await getQueue();
    const { before, after, touch } = await captureJobInsert(boss, QUEUES.deliverMessage);
    const [spliced, inserted] = [crypto.randomUUID(), crypto.randomUUID()];
    const job = (id: string) => ({ id, data: { messageId: "canary" } });
    const rollback = new Error("rolled back on purpose");
    const rows = queueTransaction(async (tx) => {
      await tx.execute(
        sql`with ${sql.raw(before)}${JSON.stringify([job(spliced)])}${sql.raw(after)} select ${sql.raw(touch)} as notified`,
      );
      await boss.insert(QUEUES.deliverMessage, [job(inserted)], { db: fromDrizzle(tx, sql) });
      const written = rowsOf(
        await tx.execute(sql`select * from pgboss.job where id in (${spliced}, ${inserted}) order by id = ${spliced}`),
      );
      expect(written).toHaveLength(2);
      const [fromBoss, fromSplice] = written.map(({ id: _id, ...row }) => row);
      expect(fromSplice).toEqual(fromBoss);
      throw rollback;
    });
    await expect(rows).rejects.toBe(rollback);
  });
});
