"use server";

import { publicAction, type FormState } from "@/app/_lib/action";
import { signIn } from "@/app/_lib/auth";
import { openWorkspace } from "@/app/_lib/workspace-cookie";
import { setupFirstOwner } from "@/lib/flows/setup/setup-first-owner";

/** A refusal keeps what was typed (never the password), so the form shows it again. */
export type SetupState = FormState;

/**
 * First run: create the owner and their workspace, then sign them in to it. Without the cookie the
 * dashboard would open their oldest membership, the seeded Demo, not the workspace they just named.
 */
export async function setupAction(_previous: SetupState, form: FormData): Promise<SetupState> {
  const fields = {
    name: String(form.get("name") ?? ""),
    email: String(form.get("email") ?? ""),
    password: String(form.get("password") ?? ""),
    workspaceName: String(form.get("workspaceName") ?? ""),
  };
  return publicAction({
    values: { name: fields.name, email: fields.email, workspaceName: fields.workspaceName },
    run: async () => {
      const owner = await setupFirstOwner(fields);
      await openWorkspace(owner.workspaceId);
      await signIn("password", { email: fields.email, password: fields.password, redirectTo: "/" });
      return {};
    },
  });
}
