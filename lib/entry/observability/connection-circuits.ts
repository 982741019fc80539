import "server-only";
import { getDb } from "@/db/client";
import type { CircuitState } from "@/db/schema";
import { circuitStateOf } from "@/lib/delivery/routing/circuit-breaker";

/**
 * Each connection's circuit (closed, open or half_open) by id, as the dashboard's Providers page shows it; the
 * instance's own connection is `default`. Pages may not open the database themselves (app-not-to-db).
 */
export async function circuitStates(
  workspaceId: string,
  connectionIds: string[],
): Promise<Record<string, CircuitState>> {
  const db = await getDb();
  const states = await Promise.all(connectionIds.map((id) => circuitStateOf(db, workspaceId, id)));
  return Object.fromEntries(connectionIds.map((id, index) => [id, states[index]]));
}
