import { and, eq, gte, lt } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { emailMessages } from "@/db/schema";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { addDays, dayStart, daySuffix } from "./bounds";
import { MESSAGE_FAMILY } from "./family";
import { maintainPartitions } from "./maintain-partitions";
import { keyMadeBefore, keyMadeFrom } from "./prune";

const m = emailMessages;
const partition = (day: Date) => `email_messages_${daySuffix(dayStart(day))}`;

/** The plan of a compiled query, its parameters written in as literals (as a custom plan sees them). */
async function planOf({ sql: text, params }: { sql: string; params: unknown[] }): Promise<string> {
  const literal = (value: unknown) => `'${value instanceof Date ? value.toISOString() : String(value)}'`;
  const explained = await (
    await getDb()
  ).execute(`explain ${text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]))}`);
  return (rowsOf(explained) as Array<Record<string, string>>).map((row) => Object.values(row)[0]).join("\n");
}

/** A workspace with one message on each of `days` (days after now), the partitions of the week ahead made. */
async function messagesOn(days: number[]) {
  const now = new Date();
  await maintainPartitions({ now });
  const { workspace } = await createTestWorkspace();
  const ids: string[] = [];
  for (const day of days) ids.push(await insertTestMessage(workspace.id, { createdAt: addDays(now, day) }));
  return { now, workspaceId: workspace.id, ids };
}

describe("bounds on the partition key from a time (ids carry their creation time)", () => {
  it("keyMadeBefore keeps every row made before the time and leaves the later days' partitions out", async () => {
    const { now, workspaceId, ids } = await messagesOn([0, 1, 3]);
    const cutoff = addDays(now, 2);
    const query = (await getDb())
      .select({ id: m.id })
      .from(m)
      .where(and(eq(m.workspaceId, workspaceId), lt(m.createdAt, cutoff), keyMadeBefore(MESSAGE_FAMILY, m.id, cutoff)));
    expect((await query).map((row) => row.id).sort()).toEqual(ids.slice(0, 2).sort());
    const plan = await planOf(query.toSQL());
    // The bound is the day after the cutoff: that day may hold rows made a moment before it; the next may not.
    expect(plan).toContain(partition(addDays(cutoff, 1)));
    expect(plan).not.toContain(partition(addDays(cutoff, 2)));
  });

  it("keyMadeFrom keeps every row made from the time on and leaves the earlier days' partitions out", async () => {
    const { now, workspaceId, ids } = await messagesOn([3, 4, 5]);
    const from = addDays(now, 4);
    const query = (await getDb())
      .select({ id: m.id })
      .from(m)
      .where(and(eq(m.workspaceId, workspaceId), gte(m.createdAt, from), keyMadeFrom(MESSAGE_FAMILY, m.id, from)));
    expect((await query).map((row) => row.id).sort()).toEqual(ids.slice(1).sort());
    const plan = await planOf(query.toSQL());
    expect(plan).toContain(partition(addDays(from, -1)));
    expect(plan).not.toContain(partition(addDays(from, -2)));
  });
});
