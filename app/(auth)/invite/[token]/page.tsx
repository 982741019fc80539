import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { AcceptForm, NewAccountForm, SignInToAcceptForm } from "@/components/auth/invite-forms";
import { Button } from "@/components/ui/button";
import { currentUser } from "@/app/_lib/dashboard-context";
import { getInvitationByToken, type InvitationState } from "@/lib/flows/members/accept-invitation";
import { ROLE_LABELS } from "@/lib/foundation/access/roles.shared";
import { acceptAsNewUser, acceptAsSignedInUser, signInToAccept, signOutToAccept } from "./actions";

export const metadata: Metadata = { title: "Invitation", referrer: "no-referrer" };

const CLOSED: Record<Exclude<InvitationState, "pending">, { title: string; text: string }> = {
  unknown: {
    title: "Invitation not found",
    text: "This invitation link is not valid. Check that you copied all of it, or ask for a new invitation.",
  },
  expired: {
    title: "Invitation expired",
    text: "Invitations are valid for 7 days. Ask an admin of the workspace to invite you again.",
  },
  revoked: {
    title: "Invitation revoked",
    text: "An admin revoked this invitation. Ask them for a new one if you should have access.",
  },
  accepted: {
    title: "Invitation already used",
    text: "This invitation was accepted already. Sign in to open the workspace.",
  },
};

// /invite/<token>: the emailed link. Signed in with the invited address → join; new address → choose a password.
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  const invitation = await getInvitationByToken(token);
  if (invitation.state !== "pending") {
    const closed = CLOSED[invitation.state];
    return (
      <Panel title={closed.title}>
        <p className="text-sm text-slate-600">{closed.text}</p>
        <Link href="/login" className="text-sm font-medium text-indigo-600 hover:underline">
          Go to sign-in
        </Link>
      </Panel>
    );
  }
  const { email, workspaceName, role } = invitation as {
    email: string;
    workspaceName: string;
    role: keyof typeof ROLE_LABELS;
  };
  const intro = (
    <p className="text-sm text-slate-600">
      You are invited to <strong className="text-slate-900">{workspaceName}</strong> as {ROLE_LABELS[role]}, at {email}.
    </p>
  );
  const current = await currentUser();
  if (current && current.user.email !== email) {
    return (
      <Panel title="Join a workspace">
        {intro}
        <p className="text-sm text-slate-600">
          You are signed in as {current.user.email}. Sign out, then open the link again to accept as {email}.
        </p>
        <form action={signOutToAccept}>
          <input type="hidden" name="token" value={token} />
          <Button type="submit" variant="secondary" className="w-full">
            Sign out
          </Button>
        </form>
      </Panel>
    );
  }
  return (
    <Panel title="Join a workspace">
      {intro}
      {current ? (
        <AcceptForm token={token} workspaceName={workspaceName} action={acceptAsSignedInUser} />
      ) : invitation.accountExists ? (
        <SignInToAcceptForm token={token} email={email} action={signInToAccept} />
      ) : (
        <NewAccountForm token={token} email={email} action={acceptAsNewUser} />
      )}
    </Panel>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="space-y-4">
      <h1 className="text-lg font-semibold">{title}</h1>
      {children}
    </div>
  );
}
