import { describe, expect, it } from "vitest";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { listMessages } from "./list-messages";

const base = new Date("2026-03-01T00:00:00Z").getTime();
const at = (minute: number) => new Date(base + minute * 60_000);
const list = (workspaceId: string, extra: Record<string, unknown> = {}) =>
  listMessages(workspaceId, { limit: 3, cursor: null, createdAt: {}, to: "Ada@Example.org", ...extra });

describe("the `to` filter through the recipients' index", () => {
  it("pages newest first in both directions, combined with other filters, and only the workspace's own", async () => {
    const { workspace } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const ids: string[] = [];
    for (let minute = 0; minute < 8; minute++) {
      // One in two also goes to Bob (a second recipient, either first or second in the array).
      const toAddresses = minute % 2 ? ["bob@example.org", "ada@example.org"] : ["ada@example.org"];
      ids.push(
        await insertTestMessage(workspace.id, {
          createdAt: at(minute),
          toAddresses,
          status: minute % 3 === 0 ? "FAILED" : "SUCCEEDED",
        }),
      );
    }
    await insertTestMessage(workspace.id, { createdAt: at(20), toAddresses: ["bob@example.org"] });
    await insertTestMessage(other.id, { createdAt: at(30), toAddresses: ["ada@example.org"] });

    const first = await list(workspace.id);
    expect(first.items.map((row) => row.id)).toEqual([ids[7], ids[6], ids[5]]);
    expect(first.meta["cursor.before"]).toBeNull();
    const second = await list(workspace.id, { cursor: { direction: "after", id: first.meta["cursor.after"] } });
    expect(second.items.map((row) => row.id)).toEqual([ids[4], ids[3], ids[2]]);
    const third = await list(workspace.id, { cursor: { direction: "after", id: second.meta["cursor.after"] } });
    expect(third.items.map((row) => row.id)).toEqual([ids[1], ids[0]]);
    expect(third.meta["cursor.after"]).toBeNull();
    const back = await list(workspace.id, { cursor: { direction: "before", id: third.items[0].id } });
    expect(back.items.map((row) => row.id)).toEqual([ids[4], ids[3], ids[2]]);
    expect(back.meta["cursor.before"]).toBe(ids[4]);

    const failed = await list(workspace.id, { status: "FAILED", limit: 10 });
    expect(failed.items.map((row) => row.id)).toEqual([ids[6], ids[3], ids[0]]);
    const bob = await list(workspace.id, { to: "bob@example.org", limit: 10 });
    expect(bob.items).toHaveLength(5);
    // Another workspace's message is not a cursor here.
    await expect(
      list(workspace.id, { cursor: { direction: "after", id: (await list(other.id)).items[0].id } }),
    ).rejects.toMatchObject({ param: "cursor.after" });
  });
});
