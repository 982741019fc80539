"use server";

import { redirect } from "next/navigation";
import { publicAction } from "@/app/_lib/action";
import { signOut } from "@/app/_lib/auth";
import { currentUser } from "@/app/_lib/dashboard-context";
import { openWorkspace } from "@/app/_lib/workspace-cookie";

// Both need no workspace (the switcher runs before one is chosen), hence publicAction, not dashboardAction.

/** Switch the workspace the dashboard shows; only to one the user is a member of. */
export async function switchWorkspace(form: FormData): Promise<void> {
  await publicAction({
    run: async () => {
      const current = await currentUser();
      if (!current) redirect("/login");
      const wanted = form.get("workspaceId");
      const workspace = current.workspaces.find((candidate) => candidate.id === wanted);
      if (workspace) await openWorkspace(workspace.id);
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
