import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import type { Clock } from "./retry-schedule";
import { attemptDeliveries } from "./attempt-deliveries";
import { fanOutWebhookEvents } from "./fan-out";
import { rowsOf } from "./rows";

/** A clock the test moves by hand; no jitter unless asked. */
export function manualClock(start = new Date()): Clock & { set(at: Date): void; advance(ms: number): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    random: () => 0.5,
    set: (at) => (now = at.getTime()),
    advance: (ms) => (now += ms),
  };
}

// On a shared PostgreSQL an event is visible to fan-out only once every older transaction (of any test alongside)
// has ended, so wait for that rather than stopping at the first empty read.
export async function fanOutEverything(workspaceId: string, clock: Clock, timeoutMs = 20_000): Promise<void> {
  const db = await getDb();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await fanOutWebhookEvents(1000, clock.now());
    const [{ left }] = rowsOf<{ left: number }>(
      await db.execute(sql`select count(*)::int as left from webhook_events e, webhook_dispatch_state s
        where s.id = 1 and e.workspace_id = ${workspaceId} and (e.tx_id, e.seq) > (s.tx_id, s.seq)`),
    );
    if (left === 0) return;
    if (Date.now() > deadline) throw new Error("events were not fanned out in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Plays the worker: fan out, then attempt due deliveries until no attempt is made any more. */
export async function deliverDue(workspaceId: string, clock: Clock): Promise<void> {
  const db = await getDb();
  await fanOutEverything(workspaceId, clock);
  const d = webhookDeliveries;
  const attemptsMade = async () =>
    Number(
      (
        await db
          .select({ n: sql<string>`coalesce(sum(${d.attempts}), 0)` })
          .from(d)
          .where(eq(d.workspaceId, workspaceId))
      )[0].n,
    );
  for (;;) {
    const due = await db
      .select({ id: d.id, endpointId: d.endpointId })
      .from(d)
      .where(
        and(
          eq(d.workspaceId, workspaceId),
          sql`${d.status} = 'pending' and ${d.nextAttemptAt} <= ${clock.now().toISOString()}::timestamptz`,
        ),
      );
    if (due.length === 0) return;
    const before = await attemptsMade();
    await attemptDeliveries(
      due.map((row) => ({ workspaceId, endpointId: row.endpointId, deliveryId: row.id })),
      clock,
    );
    if ((await attemptsMade()) === before) return;
  }
}
