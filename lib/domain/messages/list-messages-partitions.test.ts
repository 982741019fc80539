import { describe, expect, it } from "vitest";
import { addDays } from "@/lib/records/partitions/bounds";
import { maintainPartitions } from "@/lib/records/partitions/maintain-partitions";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { listMessages } from "./list-messages";
import { parseMessageListQuery } from "./message-list-query";

/** One page of the API's list, as its query string asks. */
const page = (workspaceId: string, query: string) =>
  listMessages(workspaceId, parseMessageListQuery(new URLSearchParams(query)));

describe("the message list across day partitions (a cursor's page reads only its side's days)", () => {
  it("pages one message at a time through five days, older and back newer, with the right cursors at both ends", async () => {
    const now = new Date();
    await maintainPartitions({ now });
    const { workspace } = await createTestWorkspace();
    const ids: string[] = [];
    // Days 2–6 ahead each have a partition of their own; two messages on day 4, a second apart.
    for (const [day, second] of [
      [2, 0],
      [3, 0],
      [4, 0],
      [4, 1],
      [5, 0],
      [6, 0],
    ]) {
      const createdAt = new Date(addDays(now, day).getTime() + second * 1000);
      ids.push(await insertTestMessage(workspace.id, { createdAt, status: "SUCCEEDED" }));
    }
    const newestFirst = [...ids].reverse();

    const walked: string[] = [];
    let result = await page(workspace.id, "limit=1");
    expect(result.meta["cursor.before"]).toBeNull();
    for (;;) {
      walked.push(...result.items.map((item) => item.id));
      const after = result.meta["cursor.after"];
      if (!after) break;
      result = await page(workspace.id, `limit=1&cursor.after=${after}`);
      expect(result.meta["cursor.before"]).toBe(result.items[0].id);
    }
    expect(walked).toEqual(newestFirst);

    const back: string[] = [];
    result = await page(workspace.id, `limit=2&cursor.before=${ids[0]}`);
    for (;;) {
      back.unshift(...result.items.map((item) => item.id));
      const before = result.meta["cursor.before"];
      if (!before) break;
      result = await page(workspace.id, `limit=2&cursor.before=${before}`);
    }
    expect(back).toEqual(newestFirst.slice(0, -1));
  });
});
