import "server-only";
import { desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { invitations, users } from "@/db/schema";
import type { Role } from "@/lib/foundation/access/roles.shared";
import { pendingIn } from "./invitation-token";

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** Pending invitations of the workspace, newest first (bounded: a settings card, not a report). */
export async function listPendingInvitations(workspaceId: string, limit = 100): Promise<PendingInvitation[]> {
  const db = await getDb();
  const rows = await db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      inviterName: users.name,
      inviterEmail: users.email,
      createdAt: invitations.createdAt,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedByUserId))
    .where(pendingIn(workspaceId))
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(limit);
  return rows.map(({ inviterName, inviterEmail, ...row }) => ({ ...row, invitedBy: inviterName || inviterEmail }));
}
