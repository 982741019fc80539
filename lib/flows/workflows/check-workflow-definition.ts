import "server-only";
import { and, eq, inArray, ne } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { templates, unsubscribeGroups, workflows, type WorkflowStep } from "@/db/schema";
import { AppError, notFound } from "@/lib/foundation/errors";
import { dropNulls, isPlainObject, zodToAppError } from "@/lib/foundation/validation.shared";
import { workflowDefinitionSchema, type WorkflowDefinition } from "./schemas";

export type CheckedDefinition = WorkflowDefinition & { steps: WorkflowStep[] };

/**
 * Every check before a definition is stored, shared by create and update: shape, templates and groups in this
 * workspace (404 naming the step's field), a free key (409). `workflowId`'s own key is not a conflict.
 */
export async function checkWorkflowDefinition(
  db: Executor,
  input: { workspaceId: string; definition: unknown; workflowId?: string },
): Promise<CheckedDefinition> {
  if (!isPlainObject(input.definition))
    throw new AppError("INVALID_JSON", "A workflow must be a JSON object with name and steps.");
  const parsed = workflowDefinitionSchema.safeParse(dropNulls(input.definition));
  if (!parsed.success) throw zodToAppError(parsed.error);
  const definition = parsed.data;
  await assertReferencesExist(db, input.workspaceId, definition.steps);
  if (definition.key !== undefined) {
    const [taken] = await db
      .select({ id: workflows.id })
      .from(workflows)
      .where(
        and(
          eq(workflows.workspaceId, input.workspaceId),
          eq(workflows.key, definition.key),
          input.workflowId ? ne(workflows.id, input.workflowId) : undefined,
        ),
      );
    if (taken) throw keyTaken(definition.key, taken.id);
  }
  return definition;
}

async function assertReferencesExist(db: Executor, workspaceId: string, steps: WorkflowStep[]): Promise<void> {
  const sends = steps.flatMap((step, index) => (step.type === "sendEmail" ? [{ step, index }] : []));
  const templateIds = [...new Set(sends.map(({ step }) => step.templateId))];
  const groupKeys = [...new Set(sends.flatMap(({ step }) => (step.groupKey ? [step.groupKey] : [])))];
  const foundTemplates = await db
    .select({ id: templates.id })
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), inArray(templates.id, templateIds)));
  const foundGroups = groupKeys.length
    ? await db
        .select({ key: unsubscribeGroups.key })
        .from(unsubscribeGroups)
        .where(and(eq(unsubscribeGroups.workspaceId, workspaceId), inArray(unsubscribeGroups.key, groupKeys)))
    : [];
  const knownTemplates = new Set(foundTemplates.map((row) => row.id));
  const knownGroups = new Set(foundGroups.map((row) => row.key));
  for (const { step, index } of sends) {
    if (!knownTemplates.has(step.templateId))
      throw notFound(`Template ${step.templateId} (step ${index + 1})`, `steps[${index}].templateId`);
    if (step.groupKey && !knownGroups.has(step.groupKey)) {
      throw notFound(`Unsubscribe group "${step.groupKey}" (step ${index + 1})`, `steps[${index}].groupKey`);
    }
  }
}

export function keyTaken(key: string, workflowId: string | null): AppError {
  const who = workflowId ? ` (${workflowId})` : "";
  return new AppError("CONFLICT", `Another workflow${who} of this workspace already has the key "${key}".`, {
    param: "key",
  });
}

/** Two writes with the same key at once: the unique index decides, the loser gets the same 409. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
