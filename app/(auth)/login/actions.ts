"use server";

import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { signIn } from "@/app/_lib/auth";
import { CHECK_EMAIL_PATH, MAGIC_LINK_PROVIDER_ID } from "@/lib/auth/magic-link";
import { consumeSignInAttempt } from "@/lib/auth/sign-in-throttle";
import { clientIp } from "../_lib/client-ip";

export interface SignInState {
  error?: string;
  /** What was typed (never the password), so the form keeps it after a refusal. */
  email?: string;
}

/** Email + password sign-in; a wrong pair gets one message that does not say which part was wrong. */
export async function signInWithPassword(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "");
  const throttle = await consumeSignInAttempt("password", email, await clientIp());
  if (!throttle.allowed) return { error: throttle.message, email };
  try {
    await signIn("password", { email, password: String(form.get("password") ?? ""), redirectTo: "/" });
  } catch (error) {
    // Success is a redirect thrown by signIn: only Auth.js's own errors are answers to show.
    if (error instanceof AuthError) return { error: "Wrong email or password.", email };
    throw error;
  }
  return {};
}

/**
 * Mails a sign-in link to a known address. Known or not, the answer is the same "check your inbox"
 * page (the signIn callback sends strangers there without a token), so addresses cannot be probed.
 */
export async function signInWithLink(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "").trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) return { error: "Enter your email address.", email };
  const throttle = await consumeSignInAttempt("link", email, await clientIp());
  if (!throttle.allowed) return { error: throttle.message, email };
  try {
    await signIn(MAGIC_LINK_PROVIDER_ID, { email, redirect: false, redirectTo: "/" });
  } catch (error) {
    if (error instanceof AuthError) return { error: "The sign-in link could not be sent. Try again, or sign in with your password.", email };
    throw error;
  }
  redirect(CHECK_EMAIL_PATH);
}
