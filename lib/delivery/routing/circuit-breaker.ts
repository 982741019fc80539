import "server-only";
import { and, eq, inArray, lte } from "drizzle-orm";
import { getDb, type Executor, type Tx } from "@/db/client";
import { providerCircuits, webhookEvents, type CircuitState } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { newId } from "@/lib/foundation/ids";
import { log } from "@/lib/foundation/log";
import { metrics } from "@/lib/foundation/metrics/metrics";
import { ShortLivedCache } from "@/lib/foundation/short-lived-cache";
import type { ProviderResult } from "../provider";
import type { Hop } from "./hops";

/**
 * One breaker per workspace and connection, in provider_circuits so every process sees it
 * (docs/delivery.md#routing-and-failover): PROVIDER_CIRCUIT_FAILURES transient failures in a row within
 * PROVIDER_CIRCUIT_WINDOW_SECONDS open it; after PROVIDER_CIRCUIT_OPEN_SECONDS one message probes it (half-open): a
 * success closes it, a failure opens it again.
 */

type Circuit = typeof providerCircuits.$inferSelect;
/** May a message go through the connection now: yes, yes as the one probe, or no. */
export type Admission = "closed" | "probe" | "open";

const circuits = new ShortLivedCache<Map<string, Circuit>>();

function circuitsOf(db: Executor, workspaceId: string): Promise<Map<string, Circuit>> {
  return circuits.get(db, workspaceId, async () => {
    const rows = await db.select().from(providerCircuits).where(eq(providerCircuits.workspaceId, workspaceId));
    return new Map(rows.map((row) => [row.connection, row]));
  });
}

/** The circuit's state as the dashboard and the dry run show it. */
export async function circuitStateOf(db: Executor, workspaceId: string, connectionId: string): Promise<CircuitState> {
  return (await circuitsOf(db, workspaceId)).get(connectionId)?.state ?? "closed";
}

/** Each connection's circuit by id (`default` for the instance's), as the dashboard's Providers page shows it. */
export async function circuitStates(
  workspaceId: string,
  connectionIds: string[],
): Promise<Record<string, CircuitState>> {
  const db = await getDb();
  const states = await Promise.all(connectionIds.map((id) => circuitStateOf(db, workspaceId, id)));
  return Object.fromEntries(connectionIds.map((id, index) => [id, states[index]]));
}

/** Closed: go. Open past its time: the first process to claim the probe goes, the others wait. Open: do not go. */
export async function admit(db: Executor, workspaceId: string, hop: Hop): Promise<Admission> {
  const known = await circuitsOf(db, workspaceId);
  const circuit = known.get(hop.connectionId);
  if (!circuit || circuit.state === "closed") return "closed";
  const now = new Date();
  if (circuit.retryAt && circuit.retryAt > now) return "open";
  const retryAt = new Date(now.getTime() + env().PROVIDER_CIRCUIT_OPEN_SECONDS * 1000);
  const claimed = await db
    .update(providerCircuits)
    .set({ state: "half_open", retryAt, updatedAt: now })
    .where(
      and(
        eq(providerCircuits.workspaceId, workspaceId),
        eq(providerCircuits.connection, hop.connectionId),
        inArray(providerCircuits.state, ["open", "half_open"]),
        lte(providerCircuits.retryAt, now),
      ),
    )
    .returning();
  if (claimed[0]) known.set(hop.connectionId, claimed[0]);
  return claimed[0] ? "probe" : "open";
}

/**
 * After each hand-off: a transient failure counts against the connection; anything else is an answer, and closes it.
 * Never throws: the provider has answered, and the answer must be recorded even while the database is unreachable
 * (pipeline/6-record-when-reachable.ts); a count lost then only delays a breaker.
 */
export async function recordHandoff(
  db: Executor,
  workspaceId: string,
  hop: Hop,
  result: ProviderResult,
): Promise<void> {
  metrics().connectionHandoffs.inc({ connection: hop.connectionId, outcome: result.outcome });
  try {
    await countHandoff(db, workspaceId, hop, result);
  } catch (error) {
    log.warn("connection circuit not updated", { workspaceId, connection: hop.name, error: String(error) });
  }
}

async function countHandoff(db: Executor, workspaceId: string, hop: Hop, result: ProviderResult): Promise<void> {
  const known = await circuitsOf(db, workspaceId);
  const circuit = known.get(hop.connectionId);
  if (result.outcome === "retry" && result.heldBack) return;
  const failure = result.outcome === "retry";
  // The common path: a healthy connection answered; nothing to write.
  if (!failure && (!circuit || (circuit.state === "closed" && circuit.failures === 0))) return;
  const row = await db.transaction((tx) =>
    failure ? countFailure(tx, workspaceId, hop, result.diagnostic) : closeCircuit(tx, workspaceId, hop),
  );
  known.set(hop.connectionId, row);
}

async function lockedCircuit(tx: Tx, workspaceId: string, connectionId: string): Promise<Circuit | undefined> {
  await tx.insert(providerCircuits).values({ workspaceId, connection: connectionId }).onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(providerCircuits)
    .where(and(eq(providerCircuits.workspaceId, workspaceId), eq(providerCircuits.connection, connectionId)))
    .for("update");
  return row;
}

async function countFailure(tx: Tx, workspaceId: string, hop: Hop, diagnostic: string): Promise<Circuit> {
  const settings = env();
  const now = new Date();
  const circuit = (await lockedCircuit(tx, workspaceId, hop.connectionId))!;
  const windowStart = now.getTime() - settings.PROVIDER_CIRCUIT_WINDOW_SECONDS * 1000;
  const inWindow = circuit.failingSince !== null && circuit.failingSince.getTime() >= windowStart;
  const failures = inWindow ? circuit.failures + 1 : 1;
  const opens =
    circuit.state === "half_open" || (circuit.state === "closed" && failures >= settings.PROVIDER_CIRCUIT_FAILURES);
  const [row] = await tx
    .update(providerCircuits)
    .set({
      failures,
      failingSince: inWindow ? circuit.failingSince : now,
      lastError: diagnostic.slice(0, 500),
      ...(opens
        ? { state: "open" as const, retryAt: new Date(now.getTime() + settings.PROVIDER_CIRCUIT_OPEN_SECONDS * 1000) }
        : {}),
      updatedAt: now,
    })
    .where(and(eq(providerCircuits.workspaceId, workspaceId), eq(providerCircuits.connection, hop.connectionId)))
    .returning();
  // A failed probe re-opens a circuit already open for the world: only the first opening is announced.
  if (opens && circuit.state === "closed") await announce(tx, workspaceId, hop, row, "provider.circuit_opened");
  return row;
}

async function closeCircuit(tx: Tx, workspaceId: string, hop: Hop): Promise<Circuit> {
  const circuit = (await lockedCircuit(tx, workspaceId, hop.connectionId))!;
  const [row] = await tx
    .update(providerCircuits)
    .set({ state: "closed", failures: 0, failingSince: null, retryAt: null, updatedAt: new Date() })
    .where(and(eq(providerCircuits.workspaceId, workspaceId), eq(providerCircuits.connection, hop.connectionId)))
    .returning();
  if (circuit.state !== "closed") await announce(tx, workspaceId, hop, row, "provider.circuit_closed");
  return row;
}

/** The webhook and feed event, in the transaction of the change; the metric and a log line. */
async function announce(
  tx: Tx,
  workspaceId: string,
  hop: Hop,
  circuit: Circuit,
  type: "provider.circuit_opened" | "provider.circuit_closed",
): Promise<void> {
  const opened = type === "provider.circuit_opened";
  await tx.insert(webhookEvents).values({
    id: newId("webhookEvent"),
    workspaceId,
    type,
    data: {
      connection: { id: hop.connectionId, name: hop.name, kind: hop.provider.name },
      state: circuit.state,
      failures: opened ? circuit.failures : 0,
      lastError: opened ? circuit.lastError : null,
      retryAt: opened ? circuit.retryAt?.toISOString() : null,
    },
  });
  metrics().circuitTransitions.inc({ connection: hop.connectionId, state: opened ? "open" : "closed" });
  log.warn(opened ? "connection circuit opened" : "connection circuit closed", {
    workspaceId,
    connection: hop.name,
    lastError: circuit.lastError,
  });
}
