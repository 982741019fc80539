import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templates, users } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

export type EditorTemplate = typeof templates.$inferSelect;

/** With who saved its current version (null: CLI, API or a removed user); tenant-scoped. */
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
