"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, formValues, type FormState } from "@/app/_lib/action";
import { dashboardActor } from "@/app/_lib/audit-actor";
import { contactLocaleSchema, suppressionEmailSchema } from "@/lib/domain/contacts/schemas";
import { setContactLocale } from "@/lib/domain/contacts/set-contact-locale";
import { canonicalLocaleOrThrow } from "@/lib/domain/templates/locale-variants.shared";
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

/** Sets or clears (empty) the contact's locale: its mail renders in it when a send names none. */
export async function setContactLocaleAction(_previous: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form, ["id", "locale"]);
  return dashboardAction({
    role: "ADMIN",
    schema: contactLocaleSchema,
    input: values,
    values,
    run: async ({ id, locale }, { workspace, user }) => {
      const canonical = locale === "" ? null : canonicalLocaleOrThrow(locale, "locale");
      const saved = await setContactLocale(workspace.id, id, canonical, await dashboardActor(user));
      revalidatePath(`/contacts/${id}`);
      return {
        message: saved ? `Its mail renders in ${saved} when a send names no locale.` : "Locale cleared.",
        values: { id, locale: saved ?? "" },
      };
    },
  });
}
