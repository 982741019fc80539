"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, formValues, type FormState } from "@/app/_lib/action";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { revokeApiKeyOrThrow } from "@/lib/api-keys/revoke-api-key";
import { apiKeyIdSchema, createApiKeySchema } from "@/lib/api-keys/schemas";

export type CreateKeyState = FormState<{ created: { username: string; password: string; name: string } }>;

/** Creates a key in the current workspace; the secret travels back in this one response only. */
export async function createApiKeyAction(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const values = formValues(form, ["name"]);
  return dashboardAction({
    role: "ADMIN",
    schema: createApiKeySchema,
    input: values,
    values,
    run: async ({ name }, { workspace }) => {
      const key = await createApiKey({ workspaceId: workspace.id, name });
      revalidatePath("/api-keys");
      return { created: { username: key.id, password: key.password, name: key.name } };
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
    run: async ({ id }, { workspace }) => {
      await revokeApiKeyOrThrow(workspace.id, id);
      return {};
    },
  });
  revalidatePath("/api-keys");
}
