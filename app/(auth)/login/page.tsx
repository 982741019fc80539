import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { PasswordSignInForm } from "@/components/auth/password-sign-in-form";
import { currentUser } from "@/app/_lib/dashboard-context";
import { isSetupOpen } from "@/lib/users/setup-first-owner";
import { signInWithPassword } from "./actions";

export const metadata: Metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  NoWorkspace: "Your account belongs to no workspace any more. Ask an owner for an invitation.",
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
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {ERRORS[error] ?? "Sign-in failed. Try again."}
        </p>
      ) : null}
      <PasswordSignInForm action={signInWithPassword} />
    </div>
  );
}
