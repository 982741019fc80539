import { randomBytes, randomInt } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { workspaces } from "@/db/schema";
import { purgeInboundContent } from "@/lib/domain/inbound/purge-inbound-content";
import { insertTestInboundMessage } from "@/lib/domain/inbound/testing";
import { purgeMessageContent } from "@/lib/domain/messages/purge-message-content";
import { newId } from "@/lib/foundation/ids";
import { setClock } from "@/lib/foundation/clock";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { addDays, dayStart, daySuffix } from "./bounds";
import { compactPurgedDays } from "./compact-purged-days";
import { MESSAGE_FAMILY } from "./family";
import { maintainPartitions } from "./maintain-partitions";

/**
 * A past day is written again once its last body is purged (docs/retention.md#compacting-a-day): smaller, with every
 * row kept, once only; a day with a body left, or more rows than a rewrite should lock, is left alone.
 */
const start = new Date();
const today = dayStart(start);
afterEach(() => setClock(null));

async function query(text: string) {
  return rowsOf(await (await getDb()).execute(sql.raw(text)));
}

/** A workspace keeping bodies `bodyDays` days, and `count` sent messages of `day` (days after today), each with a
 * body of 3 KB that does not compress and a timeline event. */
async function mailOn(day: number, count: number, bodyDays: number) {
  const { workspace } = await createTestWorkspace();
  await (
    await getDb()
  )
    .update(workspaces)
    .set({ bodyRetentionDays: bodyDays, metadataRetentionDays: 90 })
    .where(eq(workspaces.id, workspace.id));
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const createdAt = new Date(addDays(today, day).getTime() + 3600_000 + i * 1000);
    const body = receiptLines();
    const id = await insertTestMessage(workspace.id, {
      createdAt,
      status: "SUCCEEDED",
      bodyHtml: body,
      bodyText: body,
    });
    await recordEvent(await getDb(), {
      workspaceId: workspace.id,
      messageId: id,
      code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
      message: "Recorded.",
      at: createdAt,
    });
    ids.push(id);
  }
  return ids;
}

/** A receipt's lines, ~2.7 KB that compress to about a third: two of them (HTML and text) keep a row inline, under
 * PostgreSQL's 2 KB threshold for moving values out, as a real receipt's row is (docs/benchmarks.md). */
function receiptLines(): string {
  return Array.from({ length: 60 }, (_, line) => `<tr><td>Item ${line}</td><td>${randomInt(1_000_000)}</td></tr>`).join(
    "",
  );
}

/** The day's messages' heap, the rows of each table of the family, and whether each is ordered by its key. */
async function dayState(day: number) {
  const suffix = daySuffix(addDays(today, day));
  const tables = MESSAGE_FAMILY.tables.map((table) => `${table.name}_${suffix}`);
  const rows = await query(
    tables
      .map(
        (leaf) => `select '${leaf}' as leaf, pg_relation_size('"${leaf}"') as heap,
          (select count(*) from "${leaf}") as rows,
          exists (select 1 from pg_index where indrelid = '"${leaf}"'::regclass and indisprimary and indisclustered) as ordered`,
      )
      .join(" union all "),
  );
  return {
    /** The messages' heap: what the body purge leaves as it was, and autovacuum cannot give back. */
    heap: Number(rows[0].heap),
    rows: rows.map((row) => Number(row.rows)),
    ordered: rows.map((row) => Boolean(row.ordered)),
  };
}

/** The day's indexes of every table of the family, by name: their relation, and whether PostgreSQL may use them. */
async function indexesOf(day: number) {
  const suffix = daySuffix(addDays(today, day));
  const tables = MESSAGE_FAMILY.tables.map((table) => `'"${table.name}_${suffix}"'::regclass`).join(", ");
  const rows = await query(`select i.relname as name, i.oid::text as oid, x.indisvalid as valid
    from pg_index x join pg_class i on i.oid = x.indexrelid where x.indrelid in (${tables}) order by i.relname`);
  return rows.map((row) => ({ name: String(row.name), oid: String(row.oid), valid: Boolean(row.valid) }));
}

describe("compacting a day once its bodies are purged", { timeout: 120_000 }, () => {
  it("rewrites a past day whose every body is purged, smaller and with every row, once", async () => {
    await maintainPartitions({ now: start }); // the legacy range below today + 2, days ahead from there
    const ids = await mailOn(3, 40, 1);
    const later = addDays(today, 6);
    setClock(() => later);
    await maintainPartitions({ now: later });
    const day = `email_messages_${daySuffix(addDays(today, 3))}`;

    expect(await compactPurgedDays({ now: later })).toEqual([]); // the bodies are still there
    expect((await purgeMessageContent({ now: later })).purged).toBe(40);
    const before = await dayState(3);
    expect(before.ordered).toEqual([false, false, false, false]);

    expect(await compactPurgedDays({ now: later })).toEqual([day]);
    const after = await dayState(3);
    expect(after.rows).toEqual(before.rows);
    expect(after.rows[0]).toBe(40);
    expect(after.ordered).toEqual([true, true, true, true]);
    expect(after.heap).toBeLessThan(before.heap / 2);
    const state = await readMessageState(ids[7]);
    expect(state.message).toMatchObject({ id: ids[7], status: "SUCCEEDED", bodyHtml: "" });
    expect(state.message.contentPurgedAt).not.toBeNull();
    expect(state.events.map((event) => event.code)).toEqual(["EMAIL_MESSAGE_SENT_PROVIDER_EVENT"]);

    expect(await compactPurgedDays({ now: later })).toEqual([]); // done once
  });

  it("leaves a day while a body is kept in it; a day too large to rewrite has only its indexes rebuilt, on a server", async () => {
    await maintainPartitions({ now: start });
    await mailOn(4, 3, 1);
    await mailOn(4, 1, 30); // this workspace keeps its bodies for a month
    await mailOn(5, 3, 1);
    const later = addDays(today, 8);
    setClock(() => later);
    await maintainPartitions({ now: later });
    await purgeMessageContent({ now: later });
    const large = `email_messages_${daySuffix(addDays(today, 5))}`;
    const indexesBefore = await indexesOf(5);
    if (process.env.DATABASE_URL) {
      // What a rebuild stopped midway leaves: an invalid copy of an index (here a unique one the rows break).
      await expect(
        query(`create unique index concurrently "${large}_left_ccnew" on "${large}" (workspace_id)`),
      ).rejects.toThrow();
      expect((await indexesOf(5)).find((index) => index.name === `${large}_left_ccnew`)?.valid).toBe(false);
    }

    const compacted = await compactPurgedDays({ now: later, maxRows: 2 });
    expect((await dayState(4)).ordered).toEqual([false, false, false, false]);
    if (process.env.DATABASE_URL) {
      // Built again beside the old ones (new relations, the same names), all valid; only the root's key is marked.
      expect(compacted).toEqual([large]);
      const indexesAfter = await indexesOf(5);
      expect(indexesAfter.map((index) => index.name)).toEqual(indexesBefore.map((index) => index.name));
      for (const [at, index] of indexesAfter.entries()) {
        expect(index.valid, index.name).toBe(true);
        expect(index.oid, index.name).not.toBe(indexesBefore[at].oid);
      }
      expect((await dayState(5)).ordered).toEqual([true, false, false, false]);
      expect((await dayState(5)).rows[0]).toBe(3);
    } else {
      // The embedded database cannot rebuild online: the day keeps its free space, marked so it is not counted again.
      expect(compacted).toEqual([]);
      expect((await dayState(5)).ordered).toEqual([true, false, false, false]);
      expect(await indexesOf(5)).toEqual(indexesBefore);
    }
    expect(await compactPurgedDays({ now: later })).toEqual([]);
  });

  // Only a server has a second connection to hold a lock with.
  it.skipIf(!process.env.DATABASE_URL)(
    "leaves a day a long read holds for the next run, which does it whole",
    async () => {
      await maintainPartitions({ now: start });
      await mailOn(6, 3, 1);
      const later = addDays(today, 9);
      setClock(() => later);
      await maintainPartitions({ now: later });
      await purgeMessageContent({ now: later });
      const day = `email_messages_${daySuffix(addDays(today, 6))}`;
      const db = await getDb();
      const held = await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`select count(*) from "${day}"`)); // holds the day's table until the commit
        return compactPurgedDays({ now: later }); // gives up on it after LOCK_TIMEOUT
      });
      expect(held).toEqual([]);
      expect((await dayState(6)).ordered[0]).toBe(false);
      expect(await compactPurgedDays({ now: later })).toEqual([day]);
      expect((await dayState(6)).ordered).toEqual([true, true, true, true]);
    },
    60_000,
  );

  it("compacts a day of inbound mail and its raw bytes once their content is purged", async () => {
    await maintainPartitions({ now: start });
    const { workspace } = await createTestWorkspace();
    await (
      await getDb()
    )
      .update(workspaces)
      .set({ bodyRetentionDays: 1, metadataRetentionDays: 90 })
      .where(eq(workspaces.id, workspace.id));
    const at = new Date(addDays(today, 3).getTime() + 3600_000);
    const mail = await insertTestInboundMessage(workspace.id, {
      id: newId("inboundMessage", at),
      createdAt: at,
      textBody: randomBytes(1500).toString("hex"),
    });
    await query(`insert into inbound_message_raw (inbound_message_id, workspace_id, raw)
      values ('${mail.id}', '${workspace.id}', '${randomBytes(2000).toString("hex")}')`);
    const later = addDays(today, 6);
    setClock(() => later);
    await maintainPartitions({ now: later });
    const day = `inbound_messages_${daySuffix(addDays(today, 3))}`;
    expect(await compactPurgedDays({ now: later })).toEqual([]);
    expect((await purgeInboundContent({ now: later })).purged).toBe(1);
    expect(await compactPurgedDays({ now: later })).toEqual([day]);
    const ordered = await query(`select count(*) as n from pg_index
      where indrelid in ('"${day}"'::regclass, '"inbound_message_raw_${daySuffix(addDays(today, 3))}"'::regclass)
        and indisprimary and indisclustered`);
    expect(Number(ordered[0].n)).toBe(2);
    const [kept] = await query(`select id, content_purged_at from inbound_messages where id = '${mail.id}'`);
    expect(kept.id).toBe(mail.id);
    expect(kept.content_purged_at).not.toBeNull();
  });
});
