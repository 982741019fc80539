"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { createBlankTemplate } from "@/lib/templates/create-blank-template";
import { createTemplateFromStarter } from "@/lib/templates/create-template-from-starter";
import { deleteTemplate } from "@/lib/templates/delete-template";
import { duplicateTemplate } from "@/lib/templates/duplicate-template";
import { restoreTemplateVersion } from "@/lib/templates/restore-template-version";
import { appErrorState, type FormState } from "../domains/form-state";

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

/** /templates/new: a blank code or blocks template, or a starter; then the editor. Any member may. */
export async function createTemplateAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { workspace, user } = await requireDashboard();
  const choice = text(form, "choice");
  const values = { name: text(form, "name"), choice };
  let id: string;
  try {
    const base = { workspaceId: workspace.id, userId: user.id, name: values.name };
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
      return { error: "Choose a blank template or a starter.", param: "choice", values };
    }
  } catch (error) {
    return appErrorState(error, values);
  }
  revalidatePath("/templates");
  redirect(`/templates/${id}`);
}

/** Copies a template (content and scenarios) as "<name> (copy)" and opens the copy. */
export async function duplicateTemplateAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { workspace, user } = await requireDashboard();
  let id: string;
  try {
    id = (await duplicateTemplate({ workspaceId: workspace.id, templateId: text(form, "templateId"), userId: user.id })).id;
  } catch (error) {
    return appErrorState(error, {});
  }
  revalidatePath("/templates");
  redirect(`/templates/${id}`);
}

/** Deletes a template; refused (with the workflows named) while a workflow sends it. */
export async function deleteTemplateAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { workspace } = await requireDashboard();
  try {
    const deleted = await deleteTemplate({ workspaceId: workspace.id, templateId: text(form, "templateId") });
    revalidatePath("/templates");
    return { ok: `“${deleted.name}” was deleted.` };
  } catch (error) {
    return appErrorState(error, {});
  }
}

/** Makes an old version's content current again, as a new version; back to the history. */
export async function restoreVersionAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { workspace, user } = await requireDashboard();
  const templateId = text(form, "templateId");
  let version: number;
  try {
    const restored = await restoreTemplateVersion({
      workspaceId: workspace.id,
      templateId,
      version: Number(text(form, "version")),
      baseVersion: form.has("baseVersion") ? Number(text(form, "baseVersion")) : undefined,
      userId: user.id,
    });
    version = restored.version;
  } catch (error) {
    return appErrorState(error, {});
  }
  revalidatePath("/templates", "layout");
  redirect(`/templates/${templateId}/versions?version=${version}`);
}
