import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { inboundMessages, inboundThreads } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { getThreadForDashboard } from "./get-thread-for-dashboard";

async function insertThread(workspaceId: string) {
  const id = newId("inboundThread");
  await (await getDb()).insert(inboundThreads).values({ id, workspaceId, subjectKey: "your order" });
  return id;
}

async function insertInbound(workspaceId: string, threadId: string, at: Date, text: string) {
  const id = newId("inboundMessage", at);
  await (await getDb()).insert(inboundMessages).values({
    id,
    workspaceId,
    threadId,
    recipient: "support@in.example.com",
    fromAddress: "ada@example.org",
    subject: "Re: Your order",
    textBody: `${text}\n\n> quoted`,
    strippedText: text,
    dedupeKey: id,
    createdAt: at,
  });
  return id;
}

describe("getThreadForDashboard", () => {
  it("merges the thread's sent and received messages, oldest first, each with its direction", async () => {
    const { workspace } = await createTestWorkspace();
    const threadId = await insertThread(workspace.id);
    const start = Date.now() - 60_000;
    const sent = await insertTestMessage(workspace.id, {
      threadId,
      subject: "Your order",
      bodyText: "It shipped.",
      createdAt: new Date(start),
      sentAt: new Date(start + 1000),
    });
    const reply = await insertInbound(workspace.id, threadId, new Date(start + 10_000), "Thanks!");
    const answer = await insertTestMessage(workspace.id, {
      threadId,
      subject: "Re: Your order",
      createdAt: new Date(start + 20_000),
    });
    // Another thread's mail stays out.
    await insertInbound(workspace.id, await insertThread(workspace.id), new Date(start + 5000), "Elsewhere");

    const found = await getThreadForDashboard(workspace.id, threadId);
    expect(found?.thread.id).toBe(threadId);
    expect(found?.entries.map((entry) => [entry.direction, entry.id])).toEqual([
      ["outbound", sent],
      ["inbound", reply],
      ["outbound", answer],
    ]);
    expect(found?.entries[0]).toMatchObject({
      at: new Date(start + 1000),
      excerpt: "It shipped.",
      to: "Ada <ada@example.org>",
    });
    expect(found?.entries[1]).toMatchObject({
      from: "ada@example.org",
      to: "support@in.example.com",
      excerpt: "Thanks!",
    });
  });

  it("answers null for another workspace's thread and an unknown id", async () => {
    const owner = await createTestWorkspace();
    const other = await createTestWorkspace();
    const threadId = await insertThread(owner.workspace.id);
    expect(await getThreadForDashboard(other.workspace.id, threadId)).toBeNull();
    expect(await getThreadForDashboard(owner.workspace.id, "thr_0000000000000000")).toBeNull();
    expect(await getThreadForDashboard(owner.workspace.id, "thr_\u0000' or 1=1")).toBeNull();
  });
});
