import "server-only";
import { asc, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { memberships, users } from "@/db/schema";
import type { Role } from "@/lib/foundation/access/roles.shared";

export interface WorkspaceMember {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  joinedAt: Date;
}

/** The workspace's members, owners first, then admins, then members, each by email. */
export async function listMembers(workspaceId: string): Promise<WorkspaceMember[]> {
  const db = await getDb();
  return db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      role: memberships.role,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId))
    .orderBy(sql`case ${memberships.role} when 'OWNER' then 0 when 'ADMIN' then 1 else 2 end`, asc(users.email));
}
