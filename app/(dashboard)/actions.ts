"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { signOut } from "@/app/_lib/auth";
import { currentUser, WORKSPACE_COOKIE } from "@/app/_lib/dashboard-context";
import { env } from "@/lib/env";

/** Switch the workspace the dashboard shows; only to one the user is a member of. */
export async function switchWorkspace(form: FormData): Promise<void> {
  const current = await currentUser();
  if (!current) redirect("/login");
  const wanted = form.get("workspaceId");
  const workspace = current.workspaces.find((candidate) => candidate.id === wanted);
  if (workspace) {
    (await cookies()).set(WORKSPACE_COOKIE, workspace.id, {
      httpOnly: true,
      sameSite: "lax",
      secure: env().APP_URL.startsWith("https://"),
      path: "/",
      maxAge: 365 * 24 * 3600,
    });
  }
  redirect("/");
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/login" });
}
