import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { executePrepared } from "@/db/execute-prepared";
import { workspaces } from "@/db/schema";

/**
 * The paused workspaces among `workspaceIds`, read inside the caller's transaction with FOR SHARE.
 * The lock is what keeps a message accepted as PAUSED from being missed by a concurrent resume:
 * resumeSending's UPDATE of the workspace row waits for this transaction, and only then looks for
 * PAUSED messages. Rows of workspaces that are not paused are not locked: concurrent sends of a live
 * workspace take no row lock at all, so they never wait on each other nor share one (no multixact).
 * A pause racing a send needs no lock either: a message accepted just before the pause committed has
 * its job, and the job re-reads the pause state and holds it (lib/delivery/hold-if-paused.ts).
 * One text whatever the number of workspaces (the ids as one JSON parameter): prepared once per connection.
 */
export async function lockPausedWorkspaces(tx: Executor, workspaceIds: string[]): Promise<Map<string, string | null>> {
  if (workspaceIds.length === 0) return new Map();
  const result = (await executePrepared(tx, pausedWorkspacesSelect(sql`${JSON.stringify(workspaceIds)}`))) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ id: string; reason: string | null }>;
  return new Map(rows.map((row) => [row.id, row.reason]));
}

/** lockPausedWorkspaces' query (columns `id`, `reason`) over the ids as a JSON array parameter, also a CTE of the accept statement (lib/sending/accept-statement.ts). */
export function pausedWorkspacesSelect(workspaceIdsJson: SQL): SQL {
  const w = workspaces;
  return sql`select ${w.id} as id, ${w.pausedReason} as reason from ${w} where ${w.id} in (select jsonb_array_elements_text(${workspaceIdsJson}::jsonb)) and ${w.sendingPaused} for share`;
}

const HELD = { before: "Held: sending is paused for this workspace", after: ". The message goes out when sending resumes." };

/** The timeline sentence of a message held because its workspace's sending is paused. */
export function heldSentence(reason: string | null): string {
  const why = reason ? ` (${reason.replace(/\.$/, "")})` : "";
  return `${HELD.before}${why}${HELD.after}`;
}

/** heldSentence in SQL, for a statement that learns the reason itself (the accept statement). */
export function heldSentenceSql(reason: SQL): SQL {
  return sql`${HELD.before}::text || coalesce(' (' || regexp_replace(nullif(${reason}, ''), '\\.$', '') || ')', '') || ${HELD.after}::text`;
}
