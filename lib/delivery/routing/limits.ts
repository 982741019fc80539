import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, lte, sql } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { connectionLeases, connectionRateWindows } from "@/db/schema";
import type { DeliveryProvider, ProviderResult } from "../provider";
import type { Hop } from "./hops";

/**
 * A connection's send rate and concurrency, honoured across every process through the database
 * (docs/delivery.md#limits-per-connection): a one-second window counted in one row, and a lease per hand-off in flight
 * that expires if its process dies. A hand-off waits for room; after WAIT_MS it is given back to the queue.
 */

const WAIT_MS = 30_000;
/** A lease outlives any hand-off (the SMTP timeout is at most a few minutes) and frees itself after a crash. */
const LEASE_MS = 5 * 60_000;
const POLL_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The hop's provider, made to wait for the connection's room; unchanged when the connection has no limit. */
export function limitedProvider(hop: Hop): DeliveryProvider {
  const { provider, ratePerSecond, concurrency } = hop;
  if (!ratePerSecond && !concurrency) return provider;
  return {
    ...provider,
    // One by one: a batch call would take as many slots at once as it has mails.
    sendMany: undefined,
    async send(mail, context): Promise<ProviderResult> {
      const db = await getDb();
      const deadline = Date.now() + WAIT_MS;
      const lease = concurrency ? await takeLease(db, hop.connectionId, concurrency, deadline) : null;
      if (lease === false) return heldBack(hop, "hand-offs in flight");
      try {
        if (ratePerSecond && !(await takeRate(db, hop.connectionId, ratePerSecond, deadline)))
          return heldBack(hop, "messages a second");
        return await provider.send(mail, context);
      } finally {
        if (lease) await releaseLease(db, hop.connectionId, lease);
      }
    },
  };
}

function heldBack(hop: Hop, what: string): ProviderResult {
  return {
    outcome: "retry",
    diagnostic: `The connection ${hop.name} stayed at its limit of ${what} for ${WAIT_MS / 1000} seconds.`,
    notAccepted: true,
    heldBack: true,
  };
}

/** Counts one message in the current second's window; waits for the next window while this one is full. */
async function takeRate(db: Db, connection: string, rate: number, deadline: number): Promise<boolean> {
  const w = connectionRateWindows;
  for (;;) {
    const now = Date.now();
    const windowStart = new Date(now - (now % 1000));
    const [row] = await db
      .insert(w)
      .values({ connection, windowStart, count: 1 })
      .onConflictDoUpdate({
        target: w.connection,
        set: {
          count: sql`case when ${w.windowStart} = excluded.window_start then ${w.count} + 1 else 1 end`,
          windowStart: sql`excluded.window_start`,
        },
      })
      .returning({ count: w.count });
    if (row.count <= rate) return true;
    const next = windowStart.getTime() + 1000;
    if (next > deadline) return false;
    await sleep(next - Date.now() + Math.floor(Math.random() * 20));
  }
}

/** A lease when fewer than `limit` unexpired ones exist (checked under the connection's advisory lock), else waits. */
async function takeLease(db: Db, connection: string, limit: number, deadline: number): Promise<string | false> {
  const lease = randomUUID();
  const l = connectionLeases;
  for (;;) {
    const taken = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`postwerk:lease:${connection}`}))`);
      await tx.delete(l).where(and(eq(l.connection, connection), lte(l.expiresAt, new Date())));
      const inFlight = await tx.$count(l, eq(l.connection, connection));
      if (inFlight >= limit) return false;
      await tx.insert(l).values({ connection, lease, expiresAt: new Date(Date.now() + LEASE_MS) });
      return true;
    });
    if (taken) return lease;
    if (Date.now() + POLL_MS > deadline) return false;
    await sleep(POLL_MS);
  }
}

async function releaseLease(db: Db, connection: string, lease: string): Promise<void> {
  await db
    .delete(connectionLeases)
    .where(and(eq(connectionLeases.connection, connection), eq(connectionLeases.lease, lease)));
}
