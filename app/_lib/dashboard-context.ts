import "server-only";
import { cookies } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import { listUserWorkspaces, type UserWorkspace } from "@/lib/flows/members/list-user-workspaces";
import { hasRole, type Role } from "@/lib/foundation/access/roles.shared";
import { auth } from "./auth";

/** The cookie naming the workspace the user is looking at; only ever trusted after a membership check. */
export const WORKSPACE_COOKIE = "pw_workspace";

export interface DashboardContext {
  user: { id: string; email: string; name: string | null };
  workspace: UserWorkspace;
  role: Role;
  workspaces: UserWorkspace[];
}

/** Signed-in user and their memberships, read once per request. Null when signed out. */
export const currentUser = cache(async (): Promise<Omit<DashboardContext, "workspace" | "role"> | null> => {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const workspaces = await listUserWorkspaces(id);
  return { user: { id, email: session.user?.email ?? "", name: session.user?.name ?? null }, workspaces };
});

/**
 * Every dashboard page and server action starts here. Signed out → /login. The workspace is the one
 * the switcher cookie names if the user is a member of it, else their first; the role check runs on
 * the server (a Member calling an admin action gets 403, whatever the form said). Tenant data is then
 * read with `context.workspace.id`, never with an id taken from the URL or a form.
 */
export async function requireDashboard(atLeast: Role = "MEMBER"): Promise<DashboardContext> {
  const current = await currentUser();
  if (!current) redirect("/login");
  if (current.workspaces.length === 0) redirect("/login?error=NoWorkspace");
  const wanted = (await cookies()).get(WORKSPACE_COOKIE)?.value;
  const workspace = current.workspaces.find((candidate) => candidate.id === wanted) ?? current.workspaces[0];
  if (!hasRole(workspace.role, atLeast)) forbidden();
  return { ...current, workspace, role: workspace.role };
}
