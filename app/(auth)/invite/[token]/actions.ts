"use server";

import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { publicAction, type FormState } from "@/app/_lib/action";
import { signIn, signOut } from "@/app/_lib/auth";
import { currentUser } from "@/app/_lib/dashboard-context";
import { openWorkspace } from "@/app/_lib/workspace-cookie";
import { AppError } from "@/lib/foundation/errors";
import { consumeSignInAttempt } from "@/lib/flows/auth/sign-in-throttle";
import { acceptInvitation, acceptInvitationAsNewUser } from "@/lib/flows/members/accept-invitation";
import { clientIp } from "../../_lib/client-ip";

/** A refusal of the new-account form keeps the name typed (`values.name`). */
export type InviteFormState = FormState;

/** A signed-in user with the invited address joins. */
export async function acceptAsSignedInUser(_previous: InviteFormState, form: FormData): Promise<InviteFormState> {
  const token = String(form.get("token") ?? "");
  return publicAction({
    run: async () => {
      const current = await currentUser();
      if (!current) redirect(`/invite/${encodeURIComponent(token)}`);
      const { workspaceId } = await acceptInvitation(token, current.user.id);
      await openWorkspace(workspaceId);
      redirect("/");
    },
  });
}

/** A new address chooses a password; the account, membership and used invitation commit together, then they are signed in. */
export async function acceptAsNewUser(_previous: InviteFormState, form: FormData): Promise<InviteFormState> {
  const token = String(form.get("token") ?? "");
  const name = String(form.get("name") ?? "");
  const password = String(form.get("password") ?? "");
  return publicAction({
    values: { name },
    run: async () => {
      const accepted = await acceptInvitationAsNewUser(token, { name, password });
      await openWorkspace(accepted.workspaceId);
      await signIn("password", { email: accepted.email, password, redirectTo: "/" });
      return {};
    },
  });
}

/** An existing account signs in here, then comes back to this page to accept. */
export async function signInToAccept(_previous: InviteFormState, form: FormData): Promise<InviteFormState> {
  const token = String(form.get("token") ?? "");
  const email = String(form.get("email") ?? "");
  return publicAction({
    run: async () => {
      const throttle = await consumeSignInAttempt("password", email, await clientIp());
      if (!throttle.allowed) throw new AppError("RATE_LIMITED", throttle.message);
      try {
        await signIn("password", {
          email,
          password: String(form.get("password") ?? ""),
          redirectTo: `/invite/${encodeURIComponent(token)}`,
        });
      } catch (error) {
        if (error instanceof AuthError) throw new AppError("UNAUTHORIZED", "Wrong password.");
        throw error;
      }
      return {};
    },
  });
}

export async function signOutToAccept(form: FormData): Promise<void> {
  await publicAction({
    run: async () => {
      await signOut({ redirectTo: `/invite/${encodeURIComponent(String(form.get("token") ?? ""))}` });
      return {};
    },
  });
}
