import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { executePrepared } from "@/db/execute-prepared";
import { workspaces } from "@/db/schema";

/**
 * FOR SHARE on paused workspaces only: a concurrent resume then waits for this transaction before looking for PAUSED
 * messages, while live sends take no row lock at all. A pause racing a send is caught by the job (hold-if-paused.ts).
 */
export async function lockPausedWorkspaces(tx: Tx, workspaceIds: string[]): Promise<Map<string, string | null>> {
  if (workspaceIds.length === 0) return new Map();
  const result = (await executePrepared(tx, pausedWorkspacesSelect(sql`${JSON.stringify(workspaceIds)}`))) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    id: string;
    reason: string | null;
  }>;
  return new Map(rows.map((row) => [row.id, row.reason]));
}

/** Also a CTE of lib/sending/accept-statement.ts. */
export function pausedWorkspacesSelect(workspaceIdsJson: SQL): SQL {
  const w = workspaces;
  return sql`select ${w.id} as id, ${w.pausedReason} as reason from ${w} where ${w.id} in (select jsonb_array_elements_text(${workspaceIdsJson}::jsonb)) and ${w.sendingPaused} for share`;
}

const HELD = {
  before: "Held: sending is paused for this workspace",
  after: ". The message goes out when sending resumes.",
};

/** The timeline sentence of a message held because its workspace's sending is paused. */
export function heldSentence(reason: string | null): string {
  const why = reason ? ` (${reason.replace(/\.$/, "")})` : "";
  return `${HELD.before}${why}${HELD.after}`;
}

/** heldSentence in SQL, for a statement that learns the reason itself (the accept statement). */
export function heldSentenceSql(reason: SQL): SQL {
  return sql`${HELD.before}::text || coalesce(' (' || regexp_replace(nullif(${reason}, ''), '\\.$', '') || ')', '') || ${HELD.after}::text`;
}
