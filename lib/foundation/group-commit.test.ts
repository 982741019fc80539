import { describe, expect, it } from "vitest";
import { GroupCommitter } from "./group-commit";

/** A committer whose writes record their groups and yield to the event loop, so entries submitted meanwhile queue for the next group. */
function recordingCommitter(
  limit: { weigh: (entry: number) => number; maxWeight: number } | null,
  fails: (group: number[]) => boolean = () => false,
) {
  const groups: number[][] = [];
  const committer = new GroupCommitter<number, string>(async (entries) => {
    groups.push(entries);
    await new Promise((resolve) => setImmediate(resolve));
    if (fails(entries)) throw new Error(`group ${entries.join(",")} failed`);
    return entries.map((entry) => `wrote ${entry}`);
  }, limit);
  return { groups, committer };
}

describe("the group commit", () => {
  it("writes the first entry at once and the ones that arrive meanwhile together, each answered with its own result", async () => {
    const { groups, committer } = recordingCommitter(null);
    const results = await Promise.all([1, 2, 3, 4].map((entry) => committer.submit(entry)));
    expect(results).toEqual(["wrote 1", "wrote 2", "wrote 3", "wrote 4"]);
    expect(groups).toEqual([[1], [2, 3, 4]]);
  });

  it("caps a group by weight: the entries that fit go together, a heavier one alone", async () => {
    const { groups, committer } = recordingCommitter({ weigh: (entry) => entry, maxWeight: 10 });
    await Promise.all([5, 5, 5, 20, 1].map((entry) => committer.submit(entry)));
    expect(groups).toEqual([[5], [5, 5], [20], [1]]);
  });

  it("writes a failed group again entry by entry: only the bad entry fails", async () => {
    const { groups, committer } = recordingCommitter(null, (group) => group.includes(13));
    const results = await Promise.allSettled([1, 2, 13, 4].map((entry) => committer.submit(entry)));
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(groups).toEqual([[1], [2, 13, 4], [2], [13], [4]]);
  });
});
