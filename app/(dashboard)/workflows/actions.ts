"use server";

import { dashboardActor } from "@/app/_lib/audit-actor";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { dashboardAction, type ActionFailure, type FormState } from "@/app/_lib/action";
import { invalidParameter } from "@/lib/foundation/errors";
import type { FieldError, SaveWorkflowResult, TestRunResult } from "@/lib/flows/workflows/builder.shared";
import { createWorkflow } from "@/lib/flows/workflows/create-workflow";
import { deleteWorkflow } from "@/lib/flows/workflows/delete-workflow";
import { workflowDefinitionIssues } from "@/lib/flows/workflows/schemas";
import { setWorkflowEnabled } from "@/lib/flows/workflows/set-workflow-enabled";
import { testRunWorkflow } from "@/lib/flows/workflows/test-run-workflow";
import { updateWorkflow } from "@/lib/flows/workflows/update-workflow";

// Workflows are edited by any member (marketers), so every action here needs MEMBER only.

/** The builder places errors on its steps by param (lib/flows/workflows/builder.shared.ts), so it reads FieldErrors. */
const fieldError = (failed: ActionFailure): FieldError => ({ param: failed.field, message: failed.error });

/**
 * The builder's save: every shape problem at once (so each step shows its own), then the use case
 * with its database checks. A new workflow continues on its own page.
 */
export async function saveWorkflowAction(input: {
  id: string | null;
  definition: unknown;
}): Promise<SaveWorkflowResult> {
  const result = await dashboardAction({
    run: async (_input, { workspace, user }): Promise<{ issues: FieldError[] } | { updatedAt: string }> => {
      const issues = workflowDefinitionIssues(input.definition);
      if (issues.length > 0) return { issues };
      if (input.id) {
        const workflow = await updateWorkflow({
          workspaceId: workspace.id,
          workflowId: input.id,
          definition: input.definition,
          actor: await dashboardActor(user),
        });
        revalidatePath("/workflows");
        return { updatedAt: workflow.updatedAt.toISOString() };
      }
      const created = await createWorkflow({
        workspaceId: workspace.id,
        definition: input.definition,
        actor: await dashboardActor(user),
      });
      revalidatePath("/workflows");
      redirect(`/workflows/${created.id}?created=1`);
    },
  });
  if (!result.ok) return { ok: false, errors: [fieldError(result)] };
  return "issues" in result ? { ok: false, errors: result.issues } : { ok: true, updatedAt: result.updatedAt };
}

export type RowActionState = FormState<object>;

/** The list's Enable/Disable button. */
export async function setWorkflowEnabledAction(_previous: RowActionState, form: FormData): Promise<RowActionState> {
  return dashboardAction({
    run: async (_input, { workspace, user }) => {
      const workflowId = String(form.get("id") ?? "");
      await setWorkflowEnabled({
        workspaceId: workspace.id,
        workflowId,
        enabled: form.get("enabled") === "true",
        actor: await dashboardActor(user),
      });
      revalidatePath("/workflows");
      revalidatePath(`/workflows/${workflowId}`);
      return {};
    },
  });
}

/** Delete from the list or the builder; both land on the list, which says what was deleted. */
export async function deleteWorkflowAction(_previous: RowActionState, form: FormData): Promise<RowActionState> {
  return dashboardAction({
    run: async (_input, { workspace, user }) => {
      const { name } = await deleteWorkflow({
        workspaceId: workspace.id,
        workflowId: String(form.get("id") ?? ""),
        actor: await dashboardActor(user),
      });
      revalidatePath("/workflows");
      redirect(`/workflows?deleted=${encodeURIComponent(name)}`);
    },
  });
}

/** "Run as sandbox": the saved workflow with the sample variables (a JSON text, parsed here too). */
export async function testRunWorkflowAction(input: { id: string; variables: string }): Promise<TestRunResult> {
  const result = await dashboardAction({
    run: async (_input, { workspace }) => {
      let variables: unknown;
      try {
        variables = JSON.parse(input.variables.trim() === "" ? "{}" : input.variables);
      } catch (error) {
        throw invalidParameter("variables", `The sample variables are not valid JSON: ${(error as Error).message}`);
      }
      const run = await testRunWorkflow({ workspaceId: workspace.id, workflowId: input.id, variables });
      revalidatePath("/workflow-runs");
      return { runId: run.id, status: run.status, reason: run.reason };
    },
  });
  return result.ok ? result : { ok: false, error: fieldError(result) };
}
