import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/db/client";
import { memberships, users, workspaces } from "@/db/schema/index";
import { AppError, invalidParameter } from "@/lib/foundation/errors";
import { createWorkspaceIn } from "@/lib/domain/workspaces/create-workspace";
import { createUserIn, type CreatedUser } from "@/lib/domain/users/create-user";

export const setupFirstOwnerSchema = z.object({
  name: z.string().trim().max(200).optional(),
  email: z.string().trim(),
  password: z.string(),
  workspaceName: z.string().trim().min(1, "Give the workspace a name.").max(100),
});
export type SetupFirstOwnerInput = z.infer<typeof setupFirstOwnerSchema>;

/** Setup is open only while no user exists; afterwards people join by invitation. */
export async function isSetupOpen(): Promise<boolean> {
  const db = await getDb();
  const [anyUser] = await db.select({ id: users.id }).from(users).limit(1);
  return !anyUser;
}

/**
 * First run: the first owner, their workspace, and ownership of memberless workspaces (the demo). A lock on users makes
 * two simultaneous setups end with one owner.
 */
export async function setupFirstOwner(input: SetupFirstOwnerInput): Promise<CreatedUser> {
  const parsed = setupFirstOwnerSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidParameter(String(issue.path[0] ?? "body"), issue.message);
  }
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${users} in exclusive mode`);
    const [existing] = await tx.select({ id: users.id }).from(users).limit(1);
    if (existing) throw new AppError("CONFLICT", "Setup is already done: ask an owner for an invitation.");
    const orphans = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(sql`not exists (select 1 from ${memberships} where ${memberships.workspaceId} = ${workspaces.id})`);
    const workspace = await createWorkspaceIn(tx, { name: parsed.data.workspaceName });
    const owner = await createUserIn(tx, {
      email: parsed.data.email,
      password: parsed.data.password,
      name: parsed.data.name,
      workspaceId: workspace.id,
      role: "OWNER",
    });
    if (orphans.length > 0) {
      await tx
        .insert(memberships)
        .values(orphans.map(({ id }) => ({ workspaceId: id, userId: owner.id, role: "OWNER" as const })));
    }
    return owner;
  });
}
