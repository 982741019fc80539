"use server";

import { dashboardActor } from "@/app/_lib/audit-actor";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { dashboardAction, type FormState } from "@/app/_lib/action";
import { invalidParameter } from "@/lib/foundation/errors";
import { createBlankTemplate } from "@/lib/domain/templates/create-blank-template";
import { createTemplateFromStarter } from "@/lib/domain/templates/create-template-from-starter";
import { deleteTemplate } from "@/lib/domain/templates/delete-template";
import { duplicateTemplate } from "@/lib/domain/templates/duplicate-template";
import { restoreTemplateVersion } from "@/lib/domain/templates/restore-template-version";

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

/** /templates/new: a blank code or blocks template, or a starter; then the editor. Any member may. */
export async function createTemplateAction(_previous: FormState, form: FormData): Promise<FormState> {
  const choice = text(form, "choice");
  const values = { name: text(form, "name"), choice };
  return dashboardAction({
    values,
    run: async (_input, { workspace, user }) => {
      const base = { workspaceId: workspace.id, userId: user.id, name: values.name };
      let id: string;
      if (choice.startsWith("starter:")) {
        id = (await createTemplateFromStarter({ ...base, starterKey: choice.slice("starter:".length) })).id;
      } else if (choice === "blocks") {
        let blocks: unknown = null;
        try {
          blocks = JSON.parse(text(form, "blocks"));
        } catch {
          // Reported by the use case as an invalid blocks field.
        }
        id = (await createBlankTemplate({ ...base, kind: "blocks", bodyHtml: text(form, "bodyHtml"), blocks })).id;
      } else if (choice === "code") {
        id = (await createBlankTemplate({ ...base, kind: "code" })).id;
      } else {
        throw invalidParameter("choice", "Choose a blank template or a starter.");
      }
      revalidatePath("/templates");
      redirect(`/templates/${id}`);
    },
  });
}

/** Copies a template (content and scenarios) as "<name> (copy)" and opens the copy. */
export async function duplicateTemplateAction(_previous: FormState, form: FormData): Promise<FormState> {
  return dashboardAction({
    values: {},
    run: async (_input, { workspace, user }) => {
      const { id } = await duplicateTemplate({
        workspaceId: workspace.id,
        templateId: text(form, "templateId"),
        userId: user.id,
      });
      revalidatePath("/templates");
      redirect(`/templates/${id}`);
    },
  });
}

/** Deletes a template; refused (with the workflows named) while a workflow sends it. */
export async function deleteTemplateAction(_previous: FormState, form: FormData): Promise<FormState> {
  return dashboardAction({
    values: {},
    run: async (_input, { workspace, user }) => {
      const deleted = await deleteTemplate({
        workspaceId: workspace.id,
        templateId: text(form, "templateId"),
        actor: await dashboardActor(user),
      });
      revalidatePath("/templates");
      return { message: `“${deleted.name}” was deleted.` };
    },
  });
}

/** Makes an old version's content current again, as a new version; back to the history. */
export async function restoreVersionAction(_previous: FormState, form: FormData): Promise<FormState> {
  return dashboardAction({
    values: {},
    run: async (_input, { workspace, user }) => {
      const templateId = text(form, "templateId");
      const restored = await restoreTemplateVersion({
        workspaceId: workspace.id,
        templateId,
        version: Number(text(form, "version")),
        baseVersion: form.has("baseVersion") ? Number(text(form, "baseVersion")) : undefined,
        userId: user.id,
        actor: await dashboardActor(user),
      });
      revalidatePath("/templates", "layout");
      redirect(`/templates/${templateId}/versions?version=${restored.version}`);
    },
  });
}
