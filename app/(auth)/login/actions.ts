"use server";

import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { publicAction, type FormState } from "@/app/_lib/action";
import { signIn } from "@/app/_lib/auth";
import { CHECK_EMAIL_PATH, MAGIC_LINK_PROVIDER_ID } from "@/lib/flows/auth/magic-link";
import { consumeSignInAttempt } from "@/lib/flows/auth/sign-in-throttle";
import { AppError, invalidParameter } from "@/lib/foundation/errors";
import { clientIp } from "../_lib/client-ip";

/** A refusal keeps what was typed (`values.email`, never the password), so the form shows it again. */
export type SignInState = FormState;

/** Email + password sign-in; a wrong pair gets one message that does not say which part was wrong. */
export async function signInWithPassword(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "");
  return publicAction({
    values: { email },
    run: async () => {
      const throttle = await consumeSignInAttempt("password", email, await clientIp());
      if (!throttle.allowed) throw new AppError("RATE_LIMITED", throttle.message);
      try {
        await signIn("password", { email, password: String(form.get("password") ?? ""), redirectTo: "/" });
      } catch (error) {
        // Success is a redirect thrown by signIn: only Auth.js's own errors are answers to show.
        if (error instanceof AuthError) throw new AppError("UNAUTHORIZED", "Wrong email or password.");
        throw error;
      }
      return {};
    },
  });
}

/**
 * Mails a sign-in link to a known address. Known or not, the answer is the same "check your inbox"
 * page (the signIn callback sends strangers there without a token), so addresses cannot be probed.
 */
export async function signInWithLink(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "").trim();
  return publicAction({
    values: { email },
    run: async () => {
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw invalidParameter("email", "Enter your email address.");
      const throttle = await consumeSignInAttempt("link", email, await clientIp());
      if (!throttle.allowed) throw new AppError("RATE_LIMITED", throttle.message);
      try {
        await signIn(MAGIC_LINK_PROVIDER_ID, { email, redirect: false, redirectTo: "/" });
      } catch (error) {
        if (error instanceof AuthError)
          throw new AppError(
            "SERVICE_UNAVAILABLE",
            "The sign-in link could not be sent. Try again, or sign in with your password.",
          );
        throw error;
      }
      redirect(CHECK_EMAIL_PATH);
    },
  });
}
