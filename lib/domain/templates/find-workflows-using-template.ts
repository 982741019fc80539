import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { workflows } from "@/db/schema";

/** `steps @> '[{"templateId": …}]'`: true for a workflow with a sendEmail step using the template. */
export function stepsUseTemplate(templateId: string) {
  return sql`${workflows.steps} @> ${JSON.stringify([{ templateId }])}::jsonb`;
}

/** What stops a delete: a workflow step whose template is gone fails at run time. */
export async function findWorkflowsUsingTemplate(db: Executor, workspaceId: string, templateId: string) {
  return db
    .select({ id: workflows.id, name: workflows.name, key: workflows.key })
    .from(workflows)
    .where(and(eq(workflows.workspaceId, workspaceId), stepsUseTemplate(templateId)))
    .orderBy(asc(workflows.name), asc(workflows.id));
}
