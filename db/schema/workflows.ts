import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, ts, updatedAt, jsonb } from "./columns";
import { workspaces } from "./workspaces";

export type WorkflowStep =
  | {
      type: "sendEmail";
      templateId: string;
      /** Liquid over the run's variables, e.g. "{{ user.email }}". */
      to: string;
      cc?: string;
      bcc?: string;
      from?: string;
      replyTo?: string;
      groupKey?: string;
      /** A tag, Liquid over the run's variables, or "contact" (docs/templates.md#where-the-locale-comes-from). */
      locale?: string;
    }
  | { type: "wait"; seconds: number };

export const workflows = pgTable(
  "workflows",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Caller-defined key to trigger by, unique in the workspace. */
    key: text("key"),
    enabled: boolean("enabled").notNull().default(true),
    steps: jsonb("steps").$type<WorkflowStep[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("workflows_workspace_key_idx")
      .on(t.workspaceId, t.key)
      .where(sql`${t.key} is not null`),
    index("workflows_workspace_created_idx").on(t.workspaceId, t.createdAt),
  ],
);

export const WORKFLOW_RUN_STATUSES = ["RUNNING", "COMPLETED", "FAILED", "SKIPPED"] as const;
export type WorkflowRunStatus = (typeof WORKFLOW_RUN_STATUSES)[number];

export const workflowRuns = pgTable(
  "workflow_runs",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Null when the key matched no enabled workflow (status SKIPPED). */
    workflowId: text("workflow_id").references(() => workflows.id, { onDelete: "set null" }),
    workflowKey: text("workflow_key"),
    sandbox: boolean("sandbox").notNull(),
    status: text("status", { enum: WORKFLOW_RUN_STATUSES }).notNull(),
    reason: text("reason"),
    variables: jsonb("variables").$type<Record<string, unknown>>().notNull().default({}),
    metaId: text("meta_id"),
    /** The trigger's tags, given to every message the run sends (docs/api.md#tags). */
    tags: text("tags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Steps are copied at trigger time: editing a workflow never changes a run in flight. */
    steps: jsonb("steps").$type<WorkflowStep[]>().notNull().default([]),
    nextStep: integer("next_step").notNull().default(0),
    completedAt: ts("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("workflow_runs_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id),
    index("workflow_runs_workflow_created_idx").on(t.workflowId, t.createdAt),
  ],
);
