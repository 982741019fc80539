import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { sendMessage } from "@/lib/sending/send-message";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { pauseSending } from "./pause-sending";
import { resumeSending } from "./resume-sending";

/**
 * Sends racing a pause or a resume of their workspace (docs/api.md#decided-paused-and-deleted). The
 * send reads the pause state inside its transaction and the workspace row from a short-lived cache
 * (lib/foundation/short-lived-cache.ts) outside it: whatever the interleaving, nothing is handed to a provider
 * after the pause committed, and nothing accepted around a resume is left held.
 */
const raw = (i: number) => ({
  from: "hello@example.com",
  to: `reader${i}@example.org`,
  subject: `Race ${i}`,
  bodyHtml: "<p>Hi</p>",
});
const SENDS = 40;

async function jobsOf(messageIds: string[]): Promise<Map<string, number>> {
  const result = await (
    await getDb()
  ).execute(
    sql`select data->>'messageId' as id, count(*)::int as n from pgboss.job where name = 'deliver-message' and data->>'messageId' in (select jsonb_array_elements_text(${JSON.stringify(messageIds)}::jsonb)) group by 1`,
  );
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as Array<{
    id: string;
    n: number;
  }>;
  return new Map(rows.map((row) => [row.id, row.n]));
}

/**
 * Starts SENDS sends; once a quarter of them have been accepted, starts `during` and SENDS more sends
 * right behind it, so sends are under way on both sides of its commit. Waits for all.
 */
async function sendsAround(workspaceId: string, during: () => Promise<unknown>): Promise<string[]> {
  let accepted = 0;
  let fired: Promise<unknown> | null = null;
  const send = async (i: number) => (await sendMessage({ workspaceId, sandbox: false, body: raw(i) })).message.id;
  const later: Array<Promise<string>> = [];
  const first = Array.from({ length: SENDS }, async (_, i) => {
    const id = await send(i);
    if (++accepted === SENDS / 4) {
      fired = during();
      for (let j = 0; j < SENDS; j++) later.push(send(SENDS + j));
    }
    return id;
  });
  const ids = await Promise.all(first);
  await fired;
  return [...ids, ...(await Promise.all(later))];
}

describe("a pause and sends racing", () => {
  it("nothing is sent once the pause committed: every message is held, accepted as PAUSED or held by its job", async () => {
    const ws = await createTestWorkspace();
    await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body: raw(-1) }); // warms the caches: the sends race with a cached, unpaused row
    const ids = await sendsAround(ws.workspace.id, () =>
      pauseSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id }),
    );
    const jobs = await jobsOf(ids);
    let heldAtAcceptance = 0;
    for (const id of ids) {
      const before = await readMessageState(id);
      if (before.message.status === "PAUSED") {
        heldAtAcceptance++;
        expect(jobs.get(id) ?? 0).toBe(0);
        continue;
      }
      // Accepted before the pause was seen: its job runs now, after the pause committed, and must hold it.
      expect(before.message.status).toBe("PENDING");
      expect(jobs.get(id)).toBe(1);
      await deliverMessage({ workspaceId: ws.workspace.id, messageId: id }, { attempt: 0 });
    }
    expect(heldAtAcceptance).toBeGreaterThan(0);
    for (const id of ids) {
      const after = await readMessageState(id);
      expect(after.message.status).toBe("PAUSED");
      expect(after.inbox).toHaveLength(0);
      expect(after.codes).not.toContain("EMAIL_MESSAGE_SENT_PROVIDER_EVENT");
    }
  });

  it("nothing accepted around a resume stays held: each message ends with exactly one delivery job", async () => {
    const ws = await createTestWorkspace();
    await pauseSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id });
    await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body: raw(-1) });
    const ids = await sendsAround(ws.workspace.id, () =>
      resumeSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: ws.workspace.id }),
    );
    const jobs = await jobsOf(ids);
    for (const id of ids) {
      const state = await readMessageState(id);
      expect(state.message.status).toBe("PENDING");
      expect(jobs.get(id)).toBe(1);
    }
  });
});
