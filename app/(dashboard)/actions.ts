"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { publicAction } from "@/app/_lib/action";
import { signOut } from "@/app/_lib/auth";
import { currentUser, WORKSPACE_COOKIE } from "@/app/_lib/dashboard-context";
import { env } from "@/lib/env";

// Both need no workspace (the switcher runs before one is chosen), hence publicAction, not dashboardAction.

/** Switch the workspace the dashboard shows; only to one the user is a member of. */
export async function switchWorkspace(form: FormData): Promise<void> {
  await publicAction({
    run: async () => {
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
    },
  });
}

export async function signOutAction(): Promise<void> {
  await publicAction({
    run: async () => {
      await signOut({ redirectTo: "/login" });
      return {};
    },
  });
}
