import "server-only";
import { z } from "zod";
import { getDb, type Executor, type Tx } from "@/db/client";
import { MEMBERSHIP_ROLES, memberships, users, type MembershipRole } from "@/db/schema";
import { AppError, invalidParameter } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password";

export interface CreatedUser {
  id: string;
  email: string;
  name: string | null;
  workspaceId: string;
  role: MembershipRole;
  createdAt: Date;
}

export interface CreateUserInput {
  email: string;
  password: string;
  workspaceId: string;
  role?: MembershipRole;
  name?: string | null;
}

const emailSchema = z.email();

/** With one membership, in one transaction; emails are lower-cased and unique, so a second user is refused, not merged. */
export async function createUser(input: CreateUserInput): Promise<CreatedUser> {
  const insert = await userInsert(input);
  return (await getDb()).transaction((tx) => insert(tx));
}

/** The same in the caller's transaction. */
export async function createUserIn(tx: Tx, input: CreateUserInput): Promise<CreatedUser> {
  return (await userInsert(input))(tx);
}

/** Checks the input and hashes the password, then gives the insert. */
async function userInsert(input: CreateUserInput): Promise<(tx: Executor) => Promise<CreatedUser>> {
  const email = input.email.trim().toLowerCase();
  if (!emailSchema.safeParse(email).success)
    throw invalidParameter("email", `"${input.email}" is not a valid email address.`);
  if (input.password.length < MIN_PASSWORD_LENGTH || input.password.length > MAX_PASSWORD_LENGTH) {
    throw invalidParameter(
      "password",
      `The password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`,
    );
  }
  const role = input.role ?? "MEMBER";
  if (!MEMBERSHIP_ROLES.includes(role))
    throw invalidParameter("role", `The role must be one of ${MEMBERSHIP_ROLES.join(", ")}.`);
  // Hashed before the transaction: scrypt's CPU must not hold the (single PGlite) connection.
  const passwordHash = await hashPassword(input.password);

  const insert = async (tx: Executor): Promise<CreatedUser> => {
    const [user] = await tx
      .insert(users)
      .values({ id: newId("user"), email, name: input.name?.trim() || null, passwordHash })
      .onConflictDoNothing({ target: users.email })
      .returning();
    if (!user) throw new AppError("CONFLICT", `A user with the email ${email} already exists.`, { param: "email" });
    const [membership] = await tx
      .insert(memberships)
      .values({ workspaceId: input.workspaceId, userId: user.id, role })
      .returning();
    // Never hand the hash back: callers print or serialize this.
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      workspaceId: membership.workspaceId,
      role: membership.role,
      createdAt: user.createdAt,
    };
  };
  return insert;
}
