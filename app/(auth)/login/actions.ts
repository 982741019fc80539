"use server";

import { AuthError } from "next-auth";
import { signIn } from "@/app/_lib/auth";

export interface SignInState {
  error?: string;
}

/** Email + password sign-in; a wrong pair gets one message that does not say which part was wrong. */
export async function signInWithPassword(_previous: SignInState, form: FormData): Promise<SignInState> {
  try {
    await signIn("password", { email: form.get("email"), password: form.get("password"), redirectTo: "/" });
  } catch (error) {
    // Success is a redirect thrown by signIn: only Auth.js's own errors are answers to show.
    if (error instanceof AuthError) return { error: "Wrong email or password." };
    throw error;
  }
  return {};
}
