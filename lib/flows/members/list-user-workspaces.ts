import "server-only";
import { asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { memberships, workspaces } from "@/db/schema";
import type { Role } from "@/lib/foundation/access/roles.shared";

export interface UserWorkspace {
  id: string;
  name: string;
  role: Role;
}

/** Every workspace the user belongs to, oldest first: what the switcher offers and what may be opened. */
export async function listUserWorkspaces(userId: string): Promise<UserWorkspace[]> {
  const db = await getDb();
  return db
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(workspaces.createdAt), asc(workspaces.id));
}
