import { boolean, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, ts, updatedAt } from "./columns";

export const workspaces = pgTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** New workspaces may only send live mail to their members (docs/api.md#decided-api-keys-domains-test-mode). */
  testMode: boolean("test_mode").notNull().default(true),
  trackingEnabled: boolean("tracking_enabled").notNull().default(true),
  sendingPaused: boolean("sending_paused").notNull().default(false),
  pausedReason: text("paused_reason"),
  pausedAt: ts("paused_at"),
  pausedAutomatically: boolean("paused_automatically").notNull().default(false),
  /** The automatic-pause guard counts only bounces and complaints after this, so a resume is not re-paused. */
  resumedAt: ts("resumed_at"),
  /**
   * Set while the complaint or bounce rate is past half its pause threshold (docs/deliverability.md#complaint-guard):
   * the sentence the dashboard's banner shows; null otherwise. Set once per crossing, with its webhook event.
   */
  deliverabilityWarning: text("deliverability_warning"),
  deliverabilityWarningAt: ts("deliverability_warning_at"),
  /** Where a send's locale chain ends when neither the send nor the contact names one (docs/templates.md#localisation). */
  defaultLocale: text("default_locale"),
  /** Days bodies are kept (1–365); null follows RETENTION_DAYS (docs/retention.md). */
  bodyRetentionDays: integer("body_retention_days"),
  /** Days message metadata and timelines are kept (7–3,650, never shorter than bodies); null follows the instance default. */
  metadataRetentionDays: integer("metadata_retention_days"),
  /** Suspends every purge of this workspace's data while set (docs/retention.md). */
  legalHold: boolean("legal_hold").notNull().default(false),
  legalHoldAt: ts("legal_hold_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Auth.js-compatible user table (property names as @auth/drizzle-adapter expects). */
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name"),
  email: text("email").notNull().unique(),
  emailVerified: ts("email_verified"),
  image: text("image"),
  passwordHash: text("password_hash"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const MEMBERSHIP_ROLES = ["OWNER", "ADMIN", "MEMBER"] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

export const memberships = pgTable(
  "memberships",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: MEMBERSHIP_ROLES }).notNull().default("MEMBER"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] })],
);

export const sessions = pgTable("sessions", {
  sessionToken: text("session_token").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expires: ts("expires").notNull(),
});

export const verificationTokens = pgTable(
  "verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: ts("expires").notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);
