import { index, pgTable, text } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { createdAt, ts, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

/** The id is the public Basic username (key_…); only a SHA-256 of the secret is kept. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    secretHash: text("secret_hash").notNull(),
    secretHint: text("secret_hint").notNull(),
    /** What the key may do (lib/domain/api-keys/scopes.shared.ts); fixed at creation. */
    scopes: text("scopes")
      .array()
      .notNull()
      .default(sql`'{full}'::text[]`),
    /** Sender restriction: exact addresses (`a@b.c`) or domains (`b.c`); empty = any verified sender. */
    allowedSenders: text("allowed_senders")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** IP allow list in CIDR notation (`203.0.113.0/24`, `2001:db8::/32`); empty = any address. */
    allowedIps: text("allowed_ips")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    expiresAt: ts("expires_at"),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("api_keys_workspace_idx").on(t.workspaceId, t.createdAt)],
);
