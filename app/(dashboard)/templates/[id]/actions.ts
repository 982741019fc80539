"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { ActionResult, ScenarioView } from "@/components/templates/editor/types";
import { AppError } from "@/lib/errors";
import { deleteTemplateScenario } from "@/lib/templates/delete-template-scenario";
import { saveTemplateScenario } from "@/lib/templates/save-template-scenario";
import type { TemplateContentInput } from "@/lib/templates/schemas";
import { sendTemplateTest } from "@/lib/sending/send-template-test";
import { updateTemplate } from "@/lib/templates/update-template";
import { requireDashboard } from "@/app/_lib/dashboard-context";

// The template editor's actions. Any member may edit templates; each reads the workspace from the
// session (never from the arguments) and hands the use case's error back in words.

const templateRef = z.object({ templateId: z.string().min(1).max(64) });

/** AppErrors are the user's to fix; anything else is a bug and keeps propagating. */
function failure(error: unknown): { ok: false; error: string; code?: string; param?: string } {
  if (error instanceof AppError) return { ok: false, error: error.message, code: error.code, param: error.param };
  throw error;
}

function badRequest(error: z.ZodError) {
  return { ok: false as const, error: `Invalid ${error.issues[0]?.path.join(".") || "request"}.`, param: String(error.issues[0]?.path[0] ?? "") };
}

/** Saves the draft as the next version, refused with CONFLICT when someone saved since baseVersion. */
export async function saveTemplateAction(input: unknown): Promise<ActionResult<{ version: number; savedAt: string }>> {
  const { workspace, user } = await requireDashboard();
  const parsed = templateRef.extend({ baseVersion: z.number().int().min(1), content: z.record(z.string(), z.unknown()) }).safeParse(input);
  if (!parsed.success) return badRequest(parsed.error);
  try {
    const { templateId, baseVersion, content } = parsed.data;
    // updateTemplate validates the content itself and names the field at fault.
    const template = await updateTemplate({ workspaceId: workspace.id, templateId, content: content as TemplateContentInput, userId: user.id, baseVersion });
    revalidatePath(`/templates/${templateId}`);
    revalidatePath("/templates");
    return { ok: true, version: template.version, savedAt: template.updatedAt.toISOString() };
  } catch (error) {
    return failure(error);
  }
}

export async function saveScenarioAction(input: unknown): Promise<ActionResult<{ scenario: ScenarioView }>> {
  const { workspace } = await requireDashboard();
  const parsed = templateRef.extend({ name: z.unknown(), variables: z.unknown() }).safeParse(input);
  if (!parsed.success) return badRequest(parsed.error);
  try {
    const { templateId, name, variables } = parsed.data;
    const scenario = await saveTemplateScenario({ workspaceId: workspace.id, templateId, name, variables });
    return { ok: true, scenario: { id: scenario.id, name: scenario.name, variables: scenario.variables } };
  } catch (error) {
    return failure(error);
  }
}

export async function deleteScenarioAction(input: unknown): Promise<ActionResult> {
  const { workspace } = await requireDashboard();
  const parsed = templateRef.extend({ scenarioId: z.string().min(1).max(64) }).safeParse(input);
  if (!parsed.success) return badRequest(parsed.error);
  try {
    await deleteTemplateScenario({ workspaceId: workspace.id, ...parsed.data });
    return { ok: true };
  } catch (error) {
    return failure(error);
  }
}

/** "Send to me" (live, to the signed-in member) or "Sandbox test", of the unsaved draft. */
export async function sendTemplateTestAction(input: unknown): Promise<ActionResult<{ messageId: string; to: string }>> {
  const { workspace, user } = await requireDashboard();
  const parsed = templateRef.extend({ mode: z.enum(["me", "sandbox"]), draft: z.unknown() }).safeParse(input);
  if (!parsed.success) return badRequest(parsed.error);
  try {
    const { templateId, mode, draft } = parsed.data;
    const message = await sendTemplateTest({ workspaceId: workspace.id, templateId, userId: user.id, mode, draft });
    revalidatePath("/emails");
    return { ok: true, messageId: message.id, to: message.to.join(", ") };
  } catch (error) {
    return failure(error);
  }
}
