import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templates, users } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

export type EditorTemplate = typeof templates.$inferSelect;

/**
 * The template the editor opens, with who saved its current version (null: the CLI or API, or a
 * removed user). Tenant-scoped: another workspace's id is the same NOT_FOUND as an unknown one.
 */
export async function getTemplateForEditor(workspaceId: string, templateId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ template: templates, updatedBy: { name: users.name, email: users.email } })
    .from(templates)
    .leftJoin(users, eq(users.id, templates.updatedByUserId))
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, templateId)));
  if (!row) throw notFound(`Template ${templateId}`, "templateId");
  return { template: row.template, updatedBy: row.updatedBy?.email ? row.updatedBy : null };
}
