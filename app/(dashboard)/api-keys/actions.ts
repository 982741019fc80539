"use server";

import { revalidatePath } from "next/cache";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { revokeApiKeyOrThrow } from "@/lib/api-keys/revoke-api-key";
import { apiKeyIdSchema, createApiKeySchema } from "@/lib/api-keys/schemas";
import { AppError } from "@/lib/errors";
import { formValues, parseForm, type FormState } from "../domains/form-state";

export type CreateKeyState = FormState & { created?: { username: string; password: string; name: string } };

/** Creates a key in the current workspace; the secret travels back in this one response only. */
export async function createApiKeyAction(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const { workspace } = await requireDashboard("ADMIN");
  const values = formValues(form, ["name"]);
  const parsed = parseForm(createApiKeySchema, values);
  if ("state" in parsed) return parsed.state;
  const key = await createApiKey({ workspaceId: workspace.id, name: parsed.data.name });
  revalidatePath("/api-keys");
  return { created: { username: key.id, password: key.password, name: key.name } };
}

/** Revokes a key of the current workspace; another workspace's id (or garbage) changes nothing. */
export async function revokeApiKeyAction(form: FormData): Promise<void> {
  const { workspace } = await requireDashboard("ADMIN");
  const parsed = apiKeyIdSchema.safeParse({ id: form.get("id") });
  if (!parsed.success) return;
  try {
    await revokeApiKeyOrThrow(workspace.id, parsed.data.id);
  } catch (error) {
    if (!(error instanceof AppError && error.code === "NOT_FOUND")) throw error;
  }
  revalidatePath("/api-keys");
}
