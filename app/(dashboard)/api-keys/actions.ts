"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, formValues, type FormState } from "@/app/_lib/action";
import { dashboardActor } from "@/app/_lib/audit-actor";
import { createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { revokeApiKeyOrThrow } from "@/lib/domain/api-keys/revoke-api-key";
import { apiKeyGrantSchema, apiKeyIdSchema } from "@/lib/domain/api-keys/schemas";

export type CreateKeyState = FormState<{
  created: { username: string; password: string; name: string; scopes: string[] };
}>;

const lines = (value: string) =>
  value
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * Creates a key in the current workspace with the checked scopes (none checked = full) and the
 * optional restrictions; the secret travels back in this one response only.
 */
export async function createApiKeyAction(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const values = formValues(form, ["name", "allowedSenders", "allowedIps", "expiresAt"]);
  const scopes = form.getAll("scopes").map(String);
  return dashboardAction({
    role: "ADMIN",
    schema: apiKeyGrantSchema,
    input: {
      name: values.name,
      scopes: scopes.length ? scopes : undefined,
      allowedSenders: lines(values.allowedSenders),
      allowedIps: lines(values.allowedIps),
      // A date picks the end of that day, UTC: "expires on the 31st" still works on the 31st.
      expiresAt: values.expiresAt ? `${values.expiresAt}T23:59:59.999Z` : null,
    },
    values,
    run: async (grant, { workspace, user }) => {
      const key = await createApiKey({ workspaceId: workspace.id, ...grant, actor: await dashboardActor(user) });
      revalidatePath("/api-keys");
      return { created: { username: key.id, password: key.password, name: key.name, scopes: key.scopes } };
    },
  });
}

/** Revokes a key of the current workspace; another workspace's id (or garbage) changes nothing. */
export async function revokeApiKeyAction(form: FormData): Promise<void> {
  // A plain form action: there is no state to show, so a refusal is simply no change.
  await dashboardAction({
    role: "ADMIN",
    schema: apiKeyIdSchema,
    input: { id: form.get("id") },
    run: async ({ id }, { workspace, user }) => {
      await revokeApiKeyOrThrow(workspace.id, id, await dashboardActor(user));
      return {};
    },
  });
  revalidatePath("/api-keys");
}
