"use server";

import { signIn } from "@/app/_lib/auth";
import { AppError } from "@/lib/errors";
import { setupFirstOwner } from "@/lib/setup/setup-first-owner";

export interface SetupState {
  error?: string;
  param?: string;
  /** What was typed (never the password), so the form keeps it after a refusal. */
  values?: { name: string; email: string; workspaceName: string };
}

/** First run: create the owner and their workspace, then sign them in. */
export async function setupAction(_previous: SetupState, form: FormData): Promise<SetupState> {
  const fields = {
    name: String(form.get("name") ?? ""),
    email: String(form.get("email") ?? ""),
    password: String(form.get("password") ?? ""),
    workspaceName: String(form.get("workspaceName") ?? ""),
  };
  try {
    await setupFirstOwner(fields);
  } catch (error) {
    if (error instanceof AppError) {
      return { error: error.message, param: error.param, values: { name: fields.name, email: fields.email, workspaceName: fields.workspaceName } };
    }
    throw error;
  }
  await signIn("password", { email: fields.email, password: fields.password, redirectTo: "/" });
  return {};
}
