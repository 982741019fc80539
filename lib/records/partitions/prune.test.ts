import { and, lt } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { emailMessages } from "@/db/schema";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { addDays, dayStart, daySuffix } from "./bounds";
import { MESSAGE_FAMILY } from "./family";
import { maintainPartitions } from "./maintain-partitions";
import { keyMadeBefore } from "./prune";

describe("keyMadeBefore", () => {
  it("keeps every row made before the time and leaves the later days' partitions out of the plan", async () => {
    const now = new Date();
    await maintainPartitions({ now });
    const { workspace } = await createTestWorkspace();
    const cutoff = addDays(now, 2);
    const before = [
      await insertTestMessage(workspace.id),
      await insertTestMessage(workspace.id, { createdAt: addDays(now, 1) }),
    ];
    await insertTestMessage(workspace.id, { createdAt: addDays(now, 3) });
    const db = await getDb();
    const m = emailMessages;
    const query = db
      .select({ id: m.id })
      .from(m)
      .where(and(lt(m.createdAt, cutoff), keyMadeBefore(MESSAGE_FAMILY, m.id, cutoff)));
    expect((await query).map((row) => row.id).sort()).toEqual([...before].sort());

    const { sql: text, params } = query.toSQL();
    const literal = (value: unknown) => `'${value instanceof Date ? value.toISOString() : String(value)}'`;
    const explained = await db.execute(
      `explain ${text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]))}`,
    );
    const plan = (rowsOf(explained) as Array<Record<string, string>>).map((row) => Object.values(row)[0]).join("\n");
    // The bound is the day after the cutoff: that day may hold rows made a moment before it; the next may not.
    expect(plan).toContain(`email_messages_${daySuffix(dayStart(addDays(cutoff, 1)))}`);
    expect(plan).not.toContain(`email_messages_${daySuffix(dayStart(addDays(cutoff, 2)))}`);
  });
});
