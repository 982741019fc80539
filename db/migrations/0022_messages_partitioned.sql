-- Hand-written (docs/architecture.md#partitioned-by-day): the messages family (email_messages, its recipients, its
-- timeline email_message_logs and local_inbox) becomes partitioned by the message id's range, one partition a day,
-- so retention drops a day instead of deleting its rows. Online: nothing here reads or rewrites the rows. Each old
-- table is renamed to <name>_legacy and attached, unscanned, as the DEFAULT partition of a new parent of the old name
-- (a default partition with no siblings has nothing to check). The partition manager (lib/records/partitions/) then
-- bounds the legacy tables with validated checks, re-attaches them as the range below its first day, and creates days.
-- text_pattern_ops: the key compares bytes whatever the database's collation, so a range of ids is a range of time
-- (ids sort in ASCII order), and the columns keep their collation, which a partition must share with its parent.
-- upgrade-safe since v0.1.0: the parents keep the old names and columns; every release's statements still reach the rows
ALTER TABLE "email_messages" RENAME TO "email_messages_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER TABLE "email_messages_legacy" RENAME CONSTRAINT "email_messages_pkey" TO "email_messages_pkey_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_batch_idx" RENAME TO "email_messages_batch_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_meta_idx" RENAME TO "email_messages_meta_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_reference_idx" RENAME TO "email_messages_reference_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_resent_from_idx" RENAME TO "email_messages_resent_from_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_retention_idx" RENAME TO "email_messages_retention_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_scheduled_idx" RENAME TO "email_messages_scheduled_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_status_idx" RENAME TO "email_messages_status_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_subject_trgm_idx" RENAME TO "email_messages_subject_trgm_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_tags_idx" RENAME TO "email_messages_tags_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_thread_idx" RENAME TO "email_messages_thread_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_unconfirmed_idx" RENAME TO "email_messages_unconfirmed_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_workflow_run_idx" RENAME TO "email_messages_workflow_run_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_messages_workspace_created_idx" RENAME TO "email_messages_workspace_created_idx_legacy";--> statement-breakpoint
-- A statement trigger fires on the table a statement names: these move to the parent. The resend link loses its key
-- (a key between partitions would make every dropped day check every newer one): a resend may outlive its original.
DROP TRIGGER "email_messages_overview_insert" ON "email_messages_legacy";--> statement-breakpoint
DROP TRIGGER "email_messages_overview_update" ON "email_messages_legacy";--> statement-breakpoint
DROP TRIGGER "email_messages_recipients_insert" ON "email_messages_legacy";--> statement-breakpoint
DROP TRIGGER "email_messages_recipients_delete" ON "email_messages_legacy";--> statement-breakpoint
ALTER TABLE "email_messages_legacy" DROP CONSTRAINT "email_messages_resent_from_id_email_messages_id_fk";--> statement-breakpoint
CREATE TABLE "email_messages" (LIKE "email_messages_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("id" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "email_messages" ADD CONSTRAINT "email_messages_pkey" PRIMARY KEY ("id");--> statement-breakpoint
ALTER TABLE "email_messages" ADD CONSTRAINT "email_messages_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_messages" ADD CONSTRAINT "email_messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_messages_batch_idx" ON "email_messages" USING btree ("batch_id","batch_index") WHERE "batch_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "email_messages_meta_idx" ON "email_messages" USING btree ("workspace_id","meta_id","created_at") WHERE "meta_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "email_messages_reference_idx" ON "email_messages" USING btree ("reference_id") WHERE "reference_id" <> ''::text;--> statement-breakpoint
CREATE INDEX "email_messages_resent_from_idx" ON "email_messages" USING btree ("resent_from_id") WHERE "resent_from_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "email_messages_retention_idx" ON "email_messages" USING btree ("workspace_id","created_at","id") WHERE "content_purged_at" IS NULL;--> statement-breakpoint
CREATE INDEX "email_messages_scheduled_idx" ON "email_messages" USING btree ("workspace_id","scheduled_at") WHERE "scheduled_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "email_messages_status_idx" ON "email_messages" USING btree ("workspace_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "email_messages_subject_trgm_idx" ON "email_messages" USING gin ("subject" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "email_messages_tags_idx" ON "email_messages" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "email_messages_thread_idx" ON "email_messages" USING btree ("thread_id","created_at") WHERE "thread_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "email_messages_unconfirmed_idx" ON "email_messages" USING btree ("sent_at") WHERE "sent_at" IS NOT NULL AND "delivered_at" IS NULL AND "delivery_unconfirmed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "email_messages_workflow_run_idx" ON "email_messages" USING btree ("workflow_run_id","created_at") WHERE "workflow_run_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "email_messages_workspace_created_idx" ON "email_messages" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE TRIGGER email_messages_overview_insert AFTER INSERT ON email_messages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION overview_count_messages();--> statement-breakpoint
CREATE TRIGGER email_messages_overview_update AFTER UPDATE ON email_messages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION overview_count_messages();--> statement-breakpoint
CREATE TRIGGER email_messages_recipients_insert AFTER INSERT ON email_messages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_message_recipients_insert();--> statement-breakpoint
CREATE TRIGGER email_messages_recipients_delete AFTER DELETE ON email_messages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_message_recipients_delete();--> statement-breakpoint
ALTER TABLE "email_messages" ATTACH PARTITION "email_messages_legacy" DEFAULT;--> statement-breakpoint
-- upgrade-safe since v0.1.0: the parent keeps the old name and columns
ALTER TABLE "email_message_recipients" RENAME TO "email_message_recipients_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER TABLE "email_message_recipients_legacy" RENAME CONSTRAINT "email_message_recipients_workspace_id_address_created_at_email_" TO "email_message_recipients_legacy_pkey";--> statement-breakpoint
CREATE TABLE "email_message_recipients" (LIKE "email_message_recipients_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("email_message_id" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "email_message_recipients" ADD CONSTRAINT "email_message_recipients_workspace_id_address_created_at_email_" PRIMARY KEY ("workspace_id","address","created_at","email_message_id");--> statement-breakpoint
ALTER TABLE "email_message_recipients" ATTACH PARTITION "email_message_recipients_legacy" DEFAULT;--> statement-breakpoint
-- upgrade-safe since v0.1.0: the parent keeps the old name and columns
ALTER TABLE "email_message_logs" RENAME TO "email_message_logs_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER TABLE "email_message_logs_legacy" RENAME CONSTRAINT "email_message_logs_pkey" TO "email_message_logs_pkey_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_message_logs_message_idx" RENAME TO "email_message_logs_message_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "email_message_logs_provider_event_idx" RENAME TO "email_message_logs_provider_event_idx_legacy";--> statement-breakpoint
-- No primary key on the parent (it would have to hold the message id): each partition's own key on id, and its key
-- to the message's partition of the same range, made by the partition manager (the legacy pair keeps its old ones).
CREATE TABLE "email_message_logs" (LIKE "email_message_logs_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("email_message_id" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "email_message_logs_message_idx" ON "email_message_logs" USING btree ("email_message_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "email_message_logs_provider_event_idx" ON "email_message_logs" USING btree ("email_message_id","provider_event_id") WHERE "provider_event_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "email_message_logs" ATTACH PARTITION "email_message_logs_legacy" DEFAULT;--> statement-breakpoint
-- upgrade-safe since v0.1.0: the parent keeps the old name and columns
ALTER TABLE "local_inbox" RENAME TO "local_inbox_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER TABLE "local_inbox_legacy" RENAME CONSTRAINT "local_inbox_pkey" TO "local_inbox_pkey_legacy";--> statement-breakpoint
CREATE TABLE "local_inbox" (LIKE "local_inbox_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("email_message_id" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "local_inbox" ADD CONSTRAINT "local_inbox_pkey" PRIMARY KEY ("email_message_id");--> statement-breakpoint
ALTER TABLE "local_inbox" ADD CONSTRAINT "local_inbox_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_inbox" ATTACH PARTITION "local_inbox_legacy" DEFAULT;
