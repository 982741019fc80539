import { boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt, jsonb } from "./columns";
import { users, workspaces } from "./workspaces";

export const TEMPLATE_KINDS = ["code", "blocks"] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** `bodyHtml` always holds the Liquid HTML that is sent, compiled at save time for `blocks` templates. */
export const templates = pgTable(
  "templates",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    subject: text("subject").notNull(),
    bodyHtml: text("body_html").notNull(),
    bodyText: text("body_text"),
    /** Default sender (Liquid allowed), used when a send gives no `from`. */
    fromAddress: text("from_address"),
    replyTo: text("reply_to"),
    /** Strict: a variable missing from the data is a TEMPLATE_RENDER_ERROR instead of "". */
    strict: boolean("strict").notNull().default(false),
    kind: text("kind", { enum: TEMPLATE_KINDS }).notNull().default("code"),
    blocks: jsonb("blocks").$type<Record<string, unknown>>(),
    version: integer("version").notNull().default(1),
    /** Canonical BCP 47 tag of the content above; the last link of every locale fallback chain (docs/templates.md#localisation). */
    defaultLocale: text("default_locale").notNull().default("en"),
    /** Who saved the current version; null when the CLI or API did, or the user was removed. */
    updatedByUserId: text("updated_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("templates_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/**
 * A locale variant of a template (docs/templates.md#localisation). A null content column inherits from the next
 * locale of the chain; `messages` is the variant's table of translation keys (flat keys, ICU message syntax).
 * The default locale's message table is the row whose locale is the template's default_locale (content columns null).
 */
export const templateLocales = pgTable(
  "template_locales",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    templateId: text("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    /** Canonical BCP 47 tag (`fr-CA`, `zh-Hant`): compared as stored. */
    locale: text("locale").notNull(),
    subject: text("subject"),
    bodyHtml: text("body_html"),
    bodyText: text("body_text"),
    blocks: jsonb("blocks").$type<Record<string, unknown>>(),
    messages: jsonb("messages").$type<Record<string, string>>().notNull().default({}),
    sampleData: jsonb("sample_data").$type<Record<string, unknown>>(),
    /** The author accepts the default locale's text for keys this variant lacks (the publish lint lets it through). */
    fallsBackForMissingKeys: boolean("falls_back_for_missing_keys").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("template_locales_template_locale_idx").on(t.templateId, t.locale)],
);

/** A variant row as a version keeps it (template_versions.locales). */
export interface TemplateLocaleSnapshot {
  locale: string;
  subject: string | null;
  bodyHtml: string | null;
  bodyText: string | null;
  blocks: Record<string, unknown> | null;
  messages: Record<string, string>;
  sampleData: Record<string, unknown> | null;
  fallsBackForMissingKeys: boolean;
}

/** Every save is a version: a full copy of the editable content, who saved it and when. */
export const templateVersions = pgTable(
  "template_versions",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    templateId: text("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    name: text("name").notNull(),
    subject: text("subject").notNull(),
    bodyHtml: text("body_html").notNull(),
    bodyText: text("body_text"),
    fromAddress: text("from_address"),
    replyTo: text("reply_to"),
    strict: boolean("strict").notNull(),
    kind: text("kind", { enum: TEMPLATE_KINDS }).notNull(),
    blocks: jsonb("blocks").$type<Record<string, unknown>>(),
    defaultLocale: text("default_locale").notNull().default("en"),
    /** Every locale variant row as it was at this version, so a restore brings them back together. */
    locales: jsonb("locales").$type<TemplateLocaleSnapshot[]>().notNull().default([]),
    restoredFromVersion: integer("restored_from_version"),
    createdByUserId: text("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("template_versions_template_version_idx").on(t.templateId, t.version)],
);

/** Named sample-data sets ("new customer", "empty cart") the editor previews a template with. */
export const templateScenarios = pgTable(
  "template_scenarios",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    templateId: text("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    variables: jsonb("variables").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("template_scenarios_template_name_idx").on(t.templateId, t.name)],
);
