"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { AppError } from "@/lib/errors";
import type { FieldError, SaveWorkflowResult, TestRunResult } from "@/lib/workflows/builder.shared";
import { createWorkflow } from "@/lib/workflows/create-workflow";
import { deleteWorkflow } from "@/lib/workflows/delete-workflow";
import { workflowDefinitionIssues } from "@/lib/workflows/schemas";
import { setWorkflowEnabled } from "@/lib/workflows/set-workflow-enabled";
import { testRunWorkflow } from "@/lib/workflows/test-run-workflow";
import { updateWorkflow } from "@/lib/workflows/update-workflow";

// Workflows are edited by any member (marketers), so every action here needs MEMBER only.

/** AppErrors are the user's to fix, shown next to the field they name; anything else is a bug. */
function fieldErrors(error: unknown): FieldError[] {
  if (error instanceof AppError) return [{ param: error.param, message: error.message }];
  throw error;
}

/**
 * The builder's save: every shape problem at once (so each step shows its own), then the use case
 * with its database checks. A new workflow continues on its own page.
 */
export async function saveWorkflowAction(input: { id: string | null; definition: unknown }): Promise<SaveWorkflowResult> {
  const { workspace } = await requireDashboard();
  const issues = workflowDefinitionIssues(input.definition);
  if (issues.length > 0) return { ok: false, errors: issues };
  let created: string;
  try {
    if (input.id) {
      const workflow = await updateWorkflow({ workspaceId: workspace.id, workflowId: input.id, definition: input.definition });
      revalidatePath("/workflows");
      return { ok: true, updatedAt: workflow.updatedAt.toISOString() };
    }
    created = (await createWorkflow({ workspaceId: workspace.id, definition: input.definition })).id;
  } catch (error) {
    return { ok: false, errors: fieldErrors(error) };
  }
  revalidatePath("/workflows");
  redirect(`/workflows/${created}?created=1`);
}

export interface RowActionState {
  error?: string;
}

/** The list's Enable/Disable button. */
export async function setWorkflowEnabledAction(_previous: RowActionState, form: FormData): Promise<RowActionState> {
  const { workspace } = await requireDashboard();
  const workflowId = String(form.get("id") ?? "");
  try {
    await setWorkflowEnabled({ workspaceId: workspace.id, workflowId, enabled: form.get("enabled") === "true" });
  } catch (error) {
    return { error: fieldErrors(error)[0].message };
  }
  revalidatePath("/workflows");
  revalidatePath(`/workflows/${workflowId}`);
  return {};
}

/** Delete from the list or the builder; both land on the list, which says what was deleted. */
export async function deleteWorkflowAction(_previous: RowActionState, form: FormData): Promise<RowActionState> {
  const { workspace } = await requireDashboard();
  let name: string;
  try {
    name = (await deleteWorkflow({ workspaceId: workspace.id, workflowId: String(form.get("id") ?? "") })).name;
  } catch (error) {
    return { error: fieldErrors(error)[0].message };
  }
  revalidatePath("/workflows");
  redirect(`/workflows?deleted=${encodeURIComponent(name)}`);
}

/** "Run as sandbox": the saved workflow with the sample variables (a JSON text, parsed here too). */
export async function testRunWorkflowAction(input: { id: string; variables: string }): Promise<TestRunResult> {
  const { workspace } = await requireDashboard();
  let variables: unknown;
  try {
    variables = JSON.parse(input.variables.trim() === "" ? "{}" : input.variables);
  } catch (error) {
    return { ok: false, error: { param: "variables", message: `The sample variables are not valid JSON: ${(error as Error).message}` } };
  }
  try {
    const run = await testRunWorkflow({ workspaceId: workspace.id, workflowId: input.id, variables });
    revalidatePath("/workflow-runs");
    return { ok: true, runId: run.id, status: run.status, reason: run.reason };
  } catch (error) {
    return { ok: false, error: fieldErrors(error)[0] };
  }
}
