import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { MagicLinkForm } from "@/components/auth/magic-link-form";
import { PasswordSignInForm } from "@/components/auth/password-sign-in-form";
import { currentUser } from "@/app/_lib/dashboard-context";
import { isSetupOpen } from "@/lib/flows/setup/setup-first-owner";
import { signInWithLink, signInWithPassword } from "./actions";

export const metadata: Metadata = { title: "Sign in" };

// Auth.js sends its own error codes here (?error=…); each gets a sentence a person can act on.
const ERRORS: Record<string, string> = {
  NoWorkspace: "Your account belongs to no workspace any more. Ask an owner for an invitation.",
  Verification: "That sign-in link has expired or was already used. Ask for a new one below.",
  AccessDenied: "That sign-in link is not valid for any account.",
};

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  await connection();
  if (await isSetupOpen()) redirect("/setup");
  const { error } = await searchParams;
  const current = await currentUser();
  if (current && current.workspaces.length > 0) redirect("/");
  return (
    <div className="space-y-5">
      <h1 className="text-lg font-semibold">Sign in</h1>
      {error ? (
        <p role="alert" id="login-error" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {ERRORS[error] ?? "Sign-in failed. Try again."}
        </p>
      ) : null}
      <PasswordSignInForm action={signInWithPassword} />
      <div className="flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <MagicLinkForm action={signInWithLink} />
    </div>
  );
}
