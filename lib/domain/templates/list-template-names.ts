import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templates } from "@/db/schema";

/** Only this workspace's ids are found; a deleted template is simply absent. */
export async function listTemplateNames(
  workspaceId: string,
  ids: Iterable<string | null>,
): Promise<Map<string, string>> {
  const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const db = await getDb();
  const rows = await db
    .select({ id: templates.id, name: templates.name })
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), inArray(templates.id, wanted)));
  return new Map(rows.map((row) => [row.id, row.name]));
}
