import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templateVersions } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

/** One saved version of a template, tenant-scoped: another workspace's template is the same 404. */
export async function getTemplateVersionOrThrow(workspaceId: string, templateId: string, version: number) {
  const db = await getDb();
  const [row] = Number.isSafeInteger(version)
    ? await db
        .select()
        .from(templateVersions)
        .where(
          and(
            eq(templateVersions.workspaceId, workspaceId),
            eq(templateVersions.templateId, templateId),
            eq(templateVersions.version, version),
          ),
        )
    : [];
  if (!row) throw notFound(`Version ${version} of template ${templateId}`, "version");
  return row;
}

export type TemplateVersionRow = typeof templateVersions.$inferSelect;
