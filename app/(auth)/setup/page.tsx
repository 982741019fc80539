import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { SetupForm } from "@/components/auth/setup-form";
import { isSetupOpen } from "@/lib/flows/setup/setup-first-owner";
import { setupAction } from "./actions";

export const metadata: Metadata = { title: "Set up" };

/** First run only: once a user exists this page is gone (404), and people join by invitation. */
export default async function SetupPage() {
  await connection();
  if (!(await isSetupOpen())) notFound();
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-lg font-semibold">Create the first account</h1>
        <p className="mt-1 text-sm text-slate-600">
          You become the owner of a new workspace, and of the demo workspace seeded at first start.
        </p>
      </div>
      <SetupForm action={setupAction} />
    </div>
  );
}
