import { boolean, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, jsonb } from "./columns";
import { workspaces } from "./workspaces";

/** The API request log: every authenticated /v1 request, with bodies (sandbox input and output live here). */
export const activityLogs = pgTable(
  "activity_logs",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    apiKeyId: text("api_key_id"),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    durationMs: integer("duration_ms").notNull(),
    sandbox: boolean("sandbox").notNull().default(false),
    errorCode: text("error_code"),
    resourceId: text("resource_id"),
    requestBody: jsonb("request_body"),
    responseBody: jsonb("response_body"),
    createdAt: createdAt(),
  },
  (t) => [index("activity_logs_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id)],
);
