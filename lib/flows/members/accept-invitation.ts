import "server-only";
import { userActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { and, eq } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { invitations, memberships, users, workspaces } from "@/db/schema";
import { AppError, forbidden } from "@/lib/foundation/errors";
import { createUserIn } from "@/lib/domain/users/create-user";
import { hashInvitationToken, isInvitationToken } from "./invitation-token";
import { hasRole, type Role } from "@/lib/foundation/access/roles.shared";
import { acceptInvitationAsNewUserSchema, type AcceptInvitationAsNewUserInput } from "./schemas";
import { parseInput } from "@/lib/foundation/validation.shared";

export type InvitationState = "pending" | "expired" | "revoked" | "accepted" | "unknown";

export interface InvitationView {
  state: InvitationState;
  email: string | null;
  role: Role | null;
  workspaceName: string | null;
  /** Whether the invited address already has an account (then it signs in instead of choosing a password). */
  accountExists: boolean;
}

type InvitationRow = typeof invitations.$inferSelect;

function stateOf(row: InvitationRow | undefined, now = new Date()): InvitationState {
  if (!row) return "unknown";
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now ? "expired" : "pending";
}

/** What the /invite/<token> page shows; the token is looked up by its hash only. */
export async function getInvitationByToken(token: string): Promise<InvitationView> {
  const unknown: InvitationView = {
    state: "unknown",
    email: null,
    role: null,
    workspaceName: null,
    accountExists: false,
  };
  if (!isInvitationToken(token)) return unknown;
  const db = await getDb();
  const [row] = await db
    .select({ invitation: invitations, workspaceName: workspaces.name, userId: users.id })
    .from(invitations)
    .innerJoin(workspaces, eq(workspaces.id, invitations.workspaceId))
    .leftJoin(users, eq(users.email, invitations.email))
    .where(eq(invitations.tokenHash, hashInvitationToken(token)));
  if (!row) return unknown;
  const { invitation } = row;
  return {
    state: stateOf(invitation),
    email: invitation.email,
    role: invitation.role,
    workspaceName: row.workspaceName,
    accountExists: Boolean(row.userId),
  };
}

const REFUSALS: Record<Exclude<InvitationState, "pending">, string> = {
  unknown: "This invitation link is not valid. Ask for a new invitation.",
  expired: "This invitation has expired. Ask for a new invitation.",
  revoked: "This invitation was revoked. Ask for a new invitation.",
  accepted: "This invitation was already used.",
};

/** The pending invitation, locked until the transaction ends (two clicks accept once). */
async function lockPendingInvitation(tx: Tx, token: string): Promise<InvitationRow> {
  const [row] = isInvitationToken(token)
    ? await tx
        .select()
        .from(invitations)
        .where(eq(invitations.tokenHash, hashInvitationToken(token)))
        .for("update")
    : [];
  const state = stateOf(row);
  if (state === "unknown") throw new AppError("NOT_FOUND", REFUSALS.unknown, { param: "token" });
  if (state !== "pending") throw new AppError("CONFLICT", REFUSALS[state], { param: "token" });
  return row!;
}

/** The signed-in user accepts an invitation sent to their own address; an existing member keeps the higher role. */
export async function acceptInvitation(token: string, userId: string): Promise<{ workspaceId: string }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const invitation = await lockPendingInvitation(tx, token);
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user || user.email !== invitation.email) {
      throw forbidden(`This invitation was sent to ${invitation.email}. Sign in with that address to accept it.`);
    }
    const [existing] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.workspaceId, invitation.workspaceId), eq(memberships.userId, userId)));
    if (!existing) {
      await tx.insert(memberships).values({ workspaceId: invitation.workspaceId, userId, role: invitation.role });
    } else if (!hasRole(existing.role, invitation.role)) {
      await tx
        .update(memberships)
        .set({ role: invitation.role })
        .where(and(eq(memberships.workspaceId, invitation.workspaceId), eq(memberships.userId, userId)));
    }
    await tx.update(invitations).set({ acceptedAt: new Date() }).where(eq(invitations.id, invitation.id));
    await auditJoin(tx, invitation, { id: userId, email: user.email }, existing?.role ?? null);
    return { workspaceId: invitation.workspaceId };
  });
}

/** User, membership and used invitation commit together; having the mailed link proves the address. */
export async function acceptInvitationAsNewUser(
  token: string,
  input: AcceptInvitationAsNewUserInput,
): Promise<{ email: string; workspaceId: string }> {
  const { name, password } = parseInput(acceptInvitationAsNewUserSchema, input);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const invitation = await lockPendingInvitation(tx, token);
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, invitation.email));
    if (existing) {
      throw new AppError(
        "CONFLICT",
        `An account for ${invitation.email} exists already: sign in, then open the link again.`,
        { param: "token" },
      );
    }
    const user = await createUserIn(tx, {
      email: invitation.email,
      password,
      name,
      workspaceId: invitation.workspaceId,
      role: invitation.role,
    });
    await tx.update(invitations).set({ acceptedAt: new Date() }).where(eq(invitations.id, invitation.id));
    await auditJoin(tx, invitation, user, null);
    return { email: user.email, workspaceId: invitation.workspaceId };
  });
}

/** `member.join`: the invitee is the actor (they accepted); before is their earlier role, if any. */
async function auditJoin(
  tx: Tx,
  invitation: { id: string; workspaceId: string; role: Role },
  user: { id: string; email: string },
  earlier: Role | null,
) {
  if (earlier && hasRole(earlier, invitation.role)) return;
  await recordAudit(tx, {
    workspaceId: invitation.workspaceId,
    actor: userActor(user),
    action: "member.join",
    target: { type: "user", id: user.id },
    before: earlier ? { role: earlier } : null,
    after: { role: invitation.role, invitationId: invitation.id },
  });
}
