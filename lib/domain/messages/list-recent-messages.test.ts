import { describe, expect, it } from "vitest";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { listRecentMessages } from "./list-recent-messages";
import { NOTHING_RECORDED_YET } from "./testing";

const insertMessage = (workspaceId: string, subject: string, createdAt: Date) =>
  insertTestMessage(workspaceId, { subject, createdAt });

describe("listRecentMessages", () => {
  it("lists only the workspace's messages, newest first, stable under equal timestamps", async () => {
    const { workspace } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    const first = await insertMessage(workspace.id, "first", t(1));
    const tieA = await insertMessage(workspace.id, "tie a", t(2));
    const tieB = await insertMessage(workspace.id, "tie b", t(2));
    await insertMessage(other.id, "someone else's", t(3));

    const messages = await listRecentMessages(workspace.id);
    expect(messages.map((m) => m.id)).toEqual([tieB, tieA, first]);
    expect(messages[0]).toEqual({
      id: tieB,
      status: "PENDING",
      source: "API",
      sandbox: false,
      to: ["Ada <ada@example.org>"],
      from: "hello@example.com",
      subject: "tie b",
      templateId: null,
      createdAt: t(2),
      // The timeline's columns, for its delivery state: nothing recorded yet.
      ...NOTHING_RECORDED_YET,
    });
  });

  it("caps the page at 50 and honours a smaller limit", async () => {
    const { workspace } = await createTestWorkspace();
    for (let i = 0; i < 52; i++) await insertMessage(workspace.id, `m${i}`, new Date(Date.UTC(2026, 0, 1, 0, 0, i)));
    expect(await listRecentMessages(workspace.id, { limit: 500 })).toHaveLength(50);
    const two = await listRecentMessages(workspace.id, { limit: 2 });
    expect(two.map((m) => m.subject)).toEqual(["m51", "m50"]);
  });
});
