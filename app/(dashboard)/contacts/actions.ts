"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, formValues, type FormState } from "@/app/_lib/action";
import { dashboardActor } from "@/app/_lib/audit-actor";
import { suppressionEmailSchema } from "@/lib/domain/contacts/schemas";
import { addSuppression } from "@/lib/domain/suppressions/add-suppression";
import { removeSuppressionOrThrow } from "@/lib/domain/suppressions/remove-suppression";

/** Puts an address on the current workspace's suppression list by hand (reason MANUAL). */
export async function addSuppressionAction(_previous: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form, ["email"]);
  return dashboardAction({
    role: "ADMIN",
    schema: suppressionEmailSchema,
    input: values,
    values,
    run: async ({ email }, { workspace, user }) => {
      const row = await addSuppression({
        workspaceId: workspace.id,
        email,
        reason: "MANUAL",
        detail: "Added in the dashboard",
        actor: await dashboardActor(user),
      });
      revalidatePath("/contacts", "layout");
      return { message: `${row.email} is on the suppression list.` };
    },
  });
}

/** Takes an address off the current workspace's list; an address not on it (or another workspace's, or garbage) changes nothing. */
export async function removeSuppressionAction(form: FormData): Promise<void> {
  // A plain form action: there is no state to show, so a refusal is simply no change.
  await dashboardAction({
    role: "ADMIN",
    schema: suppressionEmailSchema,
    input: { email: form.get("email") },
    run: async ({ email }, { workspace, user }) => {
      await removeSuppressionOrThrow(workspace.id, email, await dashboardActor(user));
      return {};
    },
  });
  revalidatePath("/contacts", "layout");
}
