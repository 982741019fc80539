import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { workspaces } from "@/db/schema";

/**
 * For the instance-wide purges (activity, audit, uploads, webhook logs): a row of a workspace on legal hold is never
 * due (docs/retention.md#legal-hold). Holds are few, and the workspace's primary key answers each probe.
 */
export function notOnLegalHold(workspaceId: PgColumn): SQL {
  return sql`not exists (select 1 from ${workspaces} where ${workspaces.id} = ${workspaceId} and ${workspaces.legalHold})`;
}
