import "server-only";
import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { templates } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

/**
 * The workspace's template, its row locked for the rest of the transaction: the writers of a template
 * and of its scenarios take this lock first, so two of them cannot both pass a check (a free scenario
 * name, the scenario count, "no workflow uses it") and then both write. NOT_FOUND naming `templateId`
 * for another workspace's or an unknown id.
 */
export async function lockTemplateOrThrow(tx: Tx, workspaceId: string, templateId: string) {
  const [template] = await tx
    .select({ id: templates.id, name: templates.name })
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, templateId)))
    .for("update");
  if (!template) throw notFound(`Template ${templateId}`, "templateId");
  return template;
}
