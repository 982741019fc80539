"use server";

import { revalidatePath } from "next/cache";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { suppressionEmailSchema } from "@/lib/contacts/schemas";
import { AppError } from "@/lib/errors";
import { addSuppression } from "@/lib/suppressions/add-suppression";
import { removeSuppressionOrThrow } from "@/lib/suppressions/remove-suppression";
import { appErrorState, formValues, parseForm, type FormState } from "../domains/form-state";

/** Puts an address on the current workspace's suppression list by hand (reason MANUAL). */
export async function addSuppressionAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { workspace } = await requireDashboard("ADMIN");
  const values = formValues(form, ["email"]);
  const parsed = parseForm(suppressionEmailSchema, values);
  if ("state" in parsed) return parsed.state;
  try {
    const row = await addSuppression({ workspaceId: workspace.id, email: parsed.data.email, reason: "MANUAL", detail: "Added in the dashboard" });
    revalidatePath("/contacts", "layout");
    return { ok: `${row.email} is on the suppression list.` };
  } catch (error) {
    return appErrorState(error, values);
  }
}

/** Takes an address off the current workspace's list; an address not on it (or another workspace's) changes nothing. */
export async function removeSuppressionAction(form: FormData): Promise<void> {
  const { workspace } = await requireDashboard("ADMIN");
  const parsed = suppressionEmailSchema.safeParse({ email: form.get("email") });
  if (!parsed.success) return;
  try {
    await removeSuppressionOrThrow(workspace.id, parsed.data.email);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
  revalidatePath("/contacts", "layout");
}
