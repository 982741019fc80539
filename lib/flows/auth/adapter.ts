import "server-only";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import type { Adapter, AdapterUser } from "next-auth/adapters";
import { getDb } from "@/db/client";
import { accounts, sessions, users, verificationTokens } from "@/db/schema";

/** Never hand a password hash to Auth.js: its user objects flow into callbacks and tokens. */
function withoutSecrets<T extends AdapterUser | null>(user: T): T {
  if (!user) return user;
  const { passwordHash: _hash, ...rest } = user as T & { passwordHash?: unknown };
  return rest as T;
}

/** Auth.js's Drizzle adapter on our tables, for sign-in links; createUser refuses, since only /setup and invitations make accounts. */
export async function createAuthAdapter(): Promise<Adapter> {
  const db = await getDb();
  const base = DrizzleAdapter(db, {
    usersTable: users,
    accountsTable: accounts,
    sessionsTable: sessions,
    verificationTokensTable: verificationTokens,
  });
  return {
    ...base,
    async createUser() {
      throw new Error(
        "Accounts are created by the first-run setup or by accepting an invitation, never by signing in.",
      );
    },
    getUser: async (id) => withoutSecrets(await base.getUser!(id)),
    getUserByEmail: async (email) => withoutSecrets(await base.getUserByEmail!(email)),
    updateUser: async (user) => withoutSecrets(await base.updateUser!(user)),
  };
}
