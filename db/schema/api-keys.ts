import { index, pgTable, text } from "drizzle-orm/pg-core";
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
    /** First characters of the secret, to tell keys apart in the dashboard. */
    secretHint: text("secret_hint").notNull(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("api_keys_workspace_idx").on(t.workspaceId, t.createdAt)],
);
