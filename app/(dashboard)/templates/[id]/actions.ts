"use server";

import { dashboardActor } from "@/app/_lib/audit-actor";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dashboardAction } from "@/app/_lib/action";
import type { ActionResult, ScenarioView } from "@/components/templates/editor/types";
import { deleteTemplateScenario } from "@/lib/domain/templates/delete-template-scenario";
import { saveTemplateScenario } from "@/lib/domain/templates/save-template-scenario";
import type { TemplateLocaleVariantInput } from "@/lib/domain/templates/locale-variants.shared";
import { publishTemplateDraft } from "@/lib/domain/templates/publish-template-draft";
import type { TemplateContentInput } from "@/lib/domain/templates/schemas";
import { sendTemplateTest } from "@/lib/sending/send-template-test";

// The template editor's actions. Any member may edit templates; each reads the workspace from the
// session (never from the arguments) and hands the use case's error back in words.

const templateRef = z.object({ templateId: z.string().min(1).max(64) });

/**
 * Publishes the draft (content and every locale variant) as the next version: refused with CONFLICT when someone
 * saved since baseVersion, with TEMPLATE_MISSING_TRANSLATIONS listing each locale's missing keys.
 */
export async function saveTemplateAction(input: unknown): Promise<ActionResult<{ version: number; savedAt: string }>> {
  return dashboardAction({
    schema: templateRef.extend({
      baseVersion: z.number().int().min(1),
      content: z.record(z.string(), z.unknown()),
      variants: z.array(z.record(z.string(), z.unknown())).max(100),
    }),
    input,
    run: async ({ templateId, baseVersion, content, variants }, { workspace, user }) => {
      // The use case validates the content and variants itself and names the field at fault.
      const template = await publishTemplateDraft({
        workspaceId: workspace.id,
        templateId,
        content: content as TemplateContentInput,
        variants: variants as TemplateLocaleVariantInput[],
        userId: user.id,
        baseVersion,
        actor: await dashboardActor(user),
      });
      revalidatePath(`/templates/${templateId}`);
      revalidatePath("/templates");
      return { version: template.version, savedAt: template.updatedAt.toISOString() };
    },
  });
}

export async function saveScenarioAction(input: unknown): Promise<ActionResult<{ scenario: ScenarioView }>> {
  return dashboardAction({
    schema: templateRef.extend({ name: z.unknown(), variables: z.unknown() }),
    input,
    run: async ({ templateId, name, variables }, { workspace, user }) => {
      const scenario = await saveTemplateScenario({
        workspaceId: workspace.id,
        templateId,
        name,
        variables,
        actor: await dashboardActor(user),
      });
      return { scenario: { id: scenario.id, name: scenario.name, variables: scenario.variables } };
    },
  });
}

export async function deleteScenarioAction(input: unknown): Promise<ActionResult> {
  return dashboardAction({
    schema: templateRef.extend({ scenarioId: z.string().min(1).max(64) }),
    input,
    run: async (ref, { workspace, user }) => {
      await deleteTemplateScenario({ workspaceId: workspace.id, ...ref, actor: await dashboardActor(user) });
      return {};
    },
  });
}

/** "Send to me" (live, to the signed-in member) or "Sandbox test", of the unsaved draft. */
export async function sendTemplateTestAction(input: unknown): Promise<ActionResult<{ messageId: string; to: string }>> {
  return dashboardAction({
    schema: templateRef.extend({ mode: z.enum(["me", "sandbox"]), draft: z.unknown() }),
    input,
    run: async ({ templateId, mode, draft }, { workspace, user }) => {
      const message = await sendTemplateTest({ workspaceId: workspace.id, templateId, userId: user.id, mode, draft });
      revalidatePath("/emails");
      return { messageId: message.id, to: message.to.join(", ") };
    },
  });
}
