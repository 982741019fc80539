import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages, invitations, memberships } from "@/db/schema";
import { randomBase62 } from "@/lib/foundation/ids";
import { createUser } from "@/lib/domain/users/create-user";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import type { Actor } from "@/lib/foundation/access/actor";
import type { Role } from "@/lib/foundation/access/roles.shared";

export const uniqueEmail = (local: string) => `${local}-${randomBase62(8).toLowerCase()}@example.org`;

export async function workspaceWithOwner() {
  const { workspace } = await createTestWorkspace({ name: `Team ${randomBase62(6)}` });
  const owner = await createUser({
    email: uniqueEmail("owner"),
    password: "owner-password",
    workspaceId: workspace.id,
    role: "OWNER",
    name: "Olga Owner",
  });
  const actor: Actor = { userId: owner.id, workspaceId: workspace.id, role: "OWNER" };
  return { workspace, owner, actor };
}

export async function addPerson(workspaceId: string, role: Role) {
  const user = await createUser({
    email: uniqueEmail(role.toLowerCase()),
    password: "person-password",
    workspaceId,
    role,
  });
  const actor: Actor = { userId: user.id, workspaceId, role };
  return { user, actor };
}

/** The invitation link as the invitee reads it in the mail's text part. */
export async function linkInMessage(messageId: string): Promise<string> {
  const [message] = await (await getDb()).select().from(emailMessages).where(eq(emailMessages.id, messageId));
  const link = message.bodyText?.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no link in message ${messageId}`);
  return link;
}

export const tokenOf = (link: string) => link.slice(link.lastIndexOf("/") + 1);

export async function membershipsOf(workspaceId: string) {
  return (await getDb()).select().from(memberships).where(eq(memberships.workspaceId, workspaceId));
}

export async function invitationRow(id: string) {
  const [row] = await (await getDb()).select().from(invitations).where(eq(invitations.id, id));
  return row;
}
