import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, ts, updatedAt } from "./columns";
import { workspaces } from "./workspaces";

export const ATTACHMENT_STATUSES = ["PENDING", "UPLOADED"] as const;

/** An uploaded attachment: created with a signed upload URL, PUT by the caller, referenced when sending. */
export const attachments = pgTable(
  "attachments",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name"),
    contentType: text("content_type"),
    /** Declared size when given at creation; the real size once uploaded. */
    size: integer("size"),
    status: text("status", { enum: ATTACHMENT_STATUSES }).notNull().default("PENDING"),
    storageKey: text("storage_key").notNull(),
    uploadExpiresAt: ts("upload_expires_at").notNull(),
    uploadedAt: ts("uploaded_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("attachments_workspace_created_idx").on(t.workspaceId, t.createdAt)],
);
