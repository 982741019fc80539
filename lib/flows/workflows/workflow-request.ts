import { AppError } from "@/lib/foundation/errors";
import { assertKnownKeys, isPlainObject } from "@/lib/foundation/validation.shared";
import type { WorkflowRow } from "./create-workflow";
import { workflowDefinitionSchema } from "./schemas";

/** PATCH /v1/workflows/:id over the current definition: `key: null` removes the key, any other null leaves the field. */
export const updateWorkflowRequestSchema = workflowDefinitionSchema.partial().extend({
  key: workflowDefinitionSchema.shape.key.unwrap().nullable().optional().describe("null removes the key."),
});

export function workflowChanges(body: unknown): (current: WorkflowRow) => Record<string, unknown> {
  if (!isPlainObject(body))
    throw new AppError("INVALID_JSON", "The request body must be a JSON object of the fields to change.");
  assertKnownKeys(body, updateWorkflowRequestSchema);
  const known = Object.fromEntries(
    Object.entries(body).filter(
      ([field, value]) => field in updateWorkflowRequestSchema.shape && (value !== null || field === "key"),
    ),
  );
  return (current) => ({
    name: current.name,
    ...(current.key === null ? {} : { key: current.key }),
    enabled: current.enabled,
    steps: current.steps,
    ...known,
  });
}
