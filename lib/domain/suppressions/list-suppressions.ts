import "server-only";
import { asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { suppressions } from "@/db/schema/suppressions";
import type { Suppression } from "./add-suppression";

/** The workspace's suppression list, oldest first (capped: an operator's view, not an export). */
export async function listSuppressions(workspaceId: string, options: { limit?: number } = {}): Promise<Suppression[]> {
  return (await getDb())
    .select()
    .from(suppressions)
    .where(eq(suppressions.workspaceId, workspaceId))
    .orderBy(asc(suppressions.createdAt), asc(suppressions.id))
    .limit(options.limit ?? 1000);
}
