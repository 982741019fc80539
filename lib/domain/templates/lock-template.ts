import "server-only";
import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { templates } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

/** Every writer of a template or its scenarios takes this lock first, so two cannot both pass a check and then both write. */
export async function lockTemplateOrThrow(tx: Tx, workspaceId: string, templateId: string) {
  const [template] = await tx
    .select({ id: templates.id, name: templates.name })
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, templateId)))
    .for("update");
  if (!template) throw notFound(`Template ${templateId}`, "templateId");
  return template;
}
