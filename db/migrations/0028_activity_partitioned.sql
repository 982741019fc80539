-- Hand-written (docs/architecture.md#partitioned-by-day): the API request log becomes partitioned by day of id, as
-- the messages (0022) and the webhook log (0027) did, so that ACTIVITY_RETENTION_DAYS drops a day instead of deleting
-- its rows. Online, as those were: the old table renamed and attached, unscanned, as the DEFAULT partition of a new
-- parent of the old name, which takes its indexes' names and keys; the partition manager bounds it and makes the days.
-- upgrade-safe since v0.1.0: the parent keeps the old name and columns; every release's statements still reach the rows
ALTER TABLE "activity_logs" RENAME TO "activity_logs_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER TABLE "activity_logs_legacy" RENAME CONSTRAINT "activity_logs_pkey" TO "activity_logs_pkey_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "activity_logs_workspace_created_idx" RENAME TO "activity_logs_workspace_created_idx_legacy";--> statement-breakpoint
CREATE TABLE "activity_logs" (LIKE "activity_logs_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("id" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_pkey" PRIMARY KEY ("id");--> statement-breakpoint
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_logs_workspace_created_idx" ON "activity_logs" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
ALTER TABLE "activity_logs" ATTACH PARTITION "activity_logs_legacy" DEFAULT;
