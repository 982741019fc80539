"use server";

import { AuthError } from "next-auth";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { signIn, signOut } from "@/app/_lib/auth";
import { currentUser, WORKSPACE_COOKIE } from "@/app/_lib/dashboard-context";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { consumeSignInAttempt } from "@/lib/auth/sign-in-throttle";
import { acceptInvitation, acceptInvitationAsNewUser } from "@/lib/members/accept-invitation";
import { clientIp } from "../../_lib/client-ip";

export interface InviteFormState {
  error?: string;
  param?: string;
  values?: { name?: string };
}

/** Open the workspace just joined (a membership exists now, so the dashboard will accept the cookie). */
async function openWorkspace(workspaceId: string) {
  (await cookies()).set(WORKSPACE_COOKIE, workspaceId, {
    httpOnly: true,
    sameSite: "lax",
    secure: env().APP_URL.startsWith("https://"),
    path: "/",
    maxAge: 365 * 24 * 3600,
  });
}

/** A signed-in user with the invited address joins. */
export async function acceptAsSignedInUser(_previous: InviteFormState, form: FormData): Promise<InviteFormState> {
  const current = await currentUser();
  const token = String(form.get("token") ?? "");
  if (!current) redirect(`/invite/${encodeURIComponent(token)}`);
  let workspaceId: string;
  try {
    ({ workspaceId } = await acceptInvitation(token, current.user.id));
  } catch (error) {
    if (error instanceof AppError) return { error: error.message };
    throw error;
  }
  await openWorkspace(workspaceId);
  redirect("/");
}

/** A new address chooses a password; the account, membership and used invitation commit together, then they are signed in. */
export async function acceptAsNewUser(_previous: InviteFormState, form: FormData): Promise<InviteFormState> {
  const token = String(form.get("token") ?? "");
  const name = String(form.get("name") ?? "");
  const password = String(form.get("password") ?? "");
  let accepted: { email: string; workspaceId: string };
  try {
    accepted = await acceptInvitationAsNewUser(token, { name, password });
  } catch (error) {
    if (error instanceof AppError) return { error: error.message, param: error.param, values: { name } };
    throw error;
  }
  await openWorkspace(accepted.workspaceId);
  await signIn("password", { email: accepted.email, password, redirectTo: "/" });
  return {};
}

/** An existing account signs in here, then comes back to this page to accept. */
export async function signInToAccept(_previous: InviteFormState, form: FormData): Promise<InviteFormState> {
  const token = String(form.get("token") ?? "");
  const email = String(form.get("email") ?? "");
  const throttle = await consumeSignInAttempt("password", email, await clientIp());
  if (!throttle.allowed) return { error: throttle.message };
  try {
    await signIn("password", { email, password: String(form.get("password") ?? ""), redirectTo: `/invite/${encodeURIComponent(token)}` });
  } catch (error) {
    if (error instanceof AuthError) return { error: "Wrong password." };
    throw error;
  }
  return {};
}

export async function signOutToAccept(form: FormData): Promise<void> {
  await signOut({ redirectTo: `/invite/${encodeURIComponent(String(form.get("token") ?? ""))}` });
}
