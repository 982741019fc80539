import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { templateVersions, users } from "@/db/schema";
import { getTemplateOrThrow } from "./get-template-or-throw";

/** Newest first, without content (read per version). */
export async function listTemplateVersions(workspaceId: string, templateId: string) {
  const template = await getTemplateOrThrow(workspaceId, templateId, "templateId");
  const db = await getDb();
  const rows = await db
    .select({
      id: templateVersions.id,
      version: templateVersions.version,
      name: templateVersions.name,
      createdAt: templateVersions.createdAt,
      restoredFromVersion: templateVersions.restoredFromVersion,
      authorName: users.name,
      authorEmail: users.email,
    })
    .from(templateVersions)
    .leftJoin(users, eq(users.id, templateVersions.createdByUserId))
    .where(and(eq(templateVersions.workspaceId, workspaceId), eq(templateVersions.templateId, template.id)))
    .orderBy(desc(templateVersions.version));
  const versions = rows.map(({ authorName, authorEmail, ...row }) => ({
    ...row,
    author: authorEmail ? { name: authorName, email: authorEmail } : null,
  }));
  return { template, versions };
}

export type TemplateVersionSummary = Awaited<ReturnType<typeof listTemplateVersions>>["versions"][number];
