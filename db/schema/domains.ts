import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, jsonb, ts, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

export const DOMAIN_STATUSES = ["PENDING", "VERIFIED", "FAILED"] as const;

export const domains = pgTable(
  "domains",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Lower-cased domain name. */
    name: text("name").notNull(),
    status: text("status", { enum: DOMAIN_STATUSES }).notNull().default("PENDING"),
    verifiedAt: ts("verified_at"),
    dkimSelector: text("dkim_selector").notNull(),
    dkimPublicKey: text("dkim_public_key").notNull(),
    /** PKCS#8 PEM, AES-256-GCM encrypted with a key derived from AUTH_SECRET. */
    dkimPrivateKeyEncrypted: text("dkim_private_key_encrypted").notNull(),
    lastCheckedAt: ts("last_checked_at"),
    lastCheckError: text("last_check_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("domains_workspace_name_idx").on(t.workspaceId, t.name)],
);

/**
 * Each check of a domain's sender requirements (lib/domain/domains/requirements/): the lines as they were, kept 90
 * days (docs/deliverability.md#sender-requirements). The newest is what GET /v1/domains/:id shows.
 */
export const domainRequirementChecks = pgTable(
  "domain_requirement_checks",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    domainId: text("domain_id")
      .notNull()
      .references(() => domains.id, { onDelete: "cascade" }),
    checkedAt: ts("checked_at").notNull(),
    status: text("status", { enum: ["pass", "warn", "fail"] }).notNull(),
    lines: jsonb("lines").$type<unknown[]>().notNull(),
  },
  (t) => [index("domain_requirement_checks_domain_idx").on(t.domainId, t.checkedAt)],
);
