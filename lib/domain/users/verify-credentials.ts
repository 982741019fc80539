import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { verifyPassword } from "./password";

export interface SignedInUser {
  id: string;
  email: string;
  name: string | null;
}

/** An unknown email still costs one scrypt run, so the answer time does not reveal which addresses have accounts. */
export async function verifyCredentials(email: string, password: string): Promise<SignedInUser | null> {
  const db = await getDb();
  const [user] = await db
    .select({ id: users.id, email: users.email, name: users.name, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()));
  const matches = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !user.passwordHash || !matches) return null;
  return { id: user.id, email: user.email, name: user.name };
}

/** A well-formed hash of a random password nobody knows. */
const DUMMY_HASH = "scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$" + "A".repeat(43);
