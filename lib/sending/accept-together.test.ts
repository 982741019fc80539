import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { singleSendCommitter } from "./accept-together";
import { parseSendRequest } from "./parse-send-request";
import { prepareMessage } from "./prepare-message";
import { sendMessage } from "./send-message";

const raw = (i: number) => ({
  from: "hello@example.com",
  to: `reader${i}@example.org`,
  subject: `Together ${i}`,
  bodyHtml: "<p>Hi</p>",
});

/** The transaction that wrote each message (its row's xmin), and whether its job exists. */
async function writtenBy(ids: string[]): Promise<Array<{ id: string; xmin: string; jobs: number }>> {
  const result = await (
    await getDb()
  ).execute(sql`
    select m.id, m.xmin::text as xmin,
      (select count(*)::int from pgboss.job j where j.name = 'deliver-message' and j.data->>'messageId' = m.id) as jobs
    from email_messages m where m.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`);
  return (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as Array<{
    id: string;
    xmin: string;
    jobs: number;
  }>;
}

describe("single sends committed together", () => {
  it("concurrent sends share transactions, and each is whole: its row, its events, its one delivery job", async () => {
    const ws = await createTestWorkspace();
    await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body: raw(-1) }); // warms the caches
    const sends = 24;
    const ids = await Promise.all(
      Array.from(
        { length: sends },
        async (_, i) => (await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body: raw(i) })).message.id,
      ),
    );
    const rows = await writtenBy(ids);
    expect(rows).toHaveLength(sends);
    expect(rows.every((row) => row.jobs === 1)).toBe(true);
    // Fewer transactions than sends: the ones arriving while a group was written joined the next.
    expect(new Set(rows.map((row) => row.xmin)).size).toBeLessThan(sends);
    for (const id of ids.slice(0, 3)) {
      const state = await readMessageState(id);
      expect(state.message.status).toBe("PENDING");
      expect(state.codes).toEqual(["EMAIL_MESSAGE_CREATED", "EMAIL_MESSAGE_RENDERED"]);
    }
  });

  it("a send whose write fails in a group fails alone: the others of its group are accepted", async () => {
    const ws = await createTestWorkspace();
    const db = await getDb();
    const prepare = (i: number) =>
      prepareMessage(db, parseSendRequest(raw(i)), { workspace: ws.workspace, sandbox: false, source: "API" });
    const good = await Promise.all([0, 1, 2, 3].map(prepare));
    // A template id that does not exist: only the insert's foreign key finds it, inside the group's statement.
    const bad = { ...(await prepare(4)), templateId: "tpl_does_not_exist" };
    const committer = singleSendCommitter(db);
    const results = await Promise.allSettled(
      [good[0], bad, ...good.slice(1)].map((message) => committer.submit(message)),
    );
    expect(results.map((result) => result.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    const rows = await writtenBy([...good, bad].map((message) => message.id));
    expect(rows.map((row) => row.id).sort()).toEqual(good.map((message) => message.id).sort());
    expect(rows.every((row) => row.jobs === 1)).toBe(true);
  });
});
