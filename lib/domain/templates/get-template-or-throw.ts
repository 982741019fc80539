import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { templates } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

/** Tenant-scoped: another workspace's id is the same 404 as an unknown one. */
export async function getTemplateOrThrow(workspaceId: string, templateId: string, param?: string) {
  return getTemplateOrThrowIn(await getDb(), workspaceId, templateId, param);
}

/** The same lookup on the caller's database or transaction. */
export async function getTemplateOrThrowIn(db: Executor, workspaceId: string, templateId: string, param?: string) {
  const [template] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, templateId)));
  if (!template) throw notFound(`Template ${templateId}`, param);
  return template;
}
