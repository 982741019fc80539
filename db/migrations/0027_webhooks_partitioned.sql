-- Hand-written (docs/architecture.md#partitioned-by-day): the webhook family (webhook_events, its deliveries and their
-- attempts) becomes partitioned by day of id, as the messages family did in migration 0022, so that the webhook log
-- leaves by dropping a day instead of deleting its rows. Events are keyed by their id, deliveries by theirs (made at
-- their event's time), attempts by their delivery's. Online: nothing here reads or rewrites the rows. Each old table
-- is renamed to <name>_legacy and attached, unscanned, as the DEFAULT partition of a new parent of the old name; the
-- partition manager then bounds it and creates the days. The parents take the old indexes' names; the old tables keep
-- their keys (the attempts' key to the deliveries now points at the legacy deliveries, where their rows are).
-- upgrade-safe since v0.1.0: the parents keep the old names and columns; every release's statements still reach the rows
ALTER TABLE "webhook_events" RENAME TO "webhook_events_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER TABLE "webhook_events_legacy" RENAME CONSTRAINT "webhook_events_id_unique" TO "webhook_events_id_unique_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only
ALTER TABLE "webhook_events_legacy" RENAME CONSTRAINT "webhook_events_pkey" TO "webhook_events_pkey_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "webhook_events_created_idx" RENAME TO "webhook_events_created_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "webhook_events_feed_idx" RENAME TO "webhook_events_feed_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "webhook_events_order_idx" RENAME TO "webhook_events_order_idx_legacy";--> statement-breakpoint
-- No primary key on the parent (one on seq would have to hold the id): the unique id is the key, seq the order.
CREATE TABLE "webhook_events" (LIKE "webhook_events_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("id" text_pattern_ops);--> statement-breakpoint
-- The sequence follows the parent: dropping the legacy partition one day must not take the order's numbers with it.
ALTER SEQUENCE "webhook_events_seq_seq" OWNED BY "webhook_events"."seq";--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_id_unique" UNIQUE ("id");--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhook_events_feed_idx" ON "webhook_events" USING btree ("workspace_id","tx_id","seq");--> statement-breakpoint
CREATE INDEX "webhook_events_order_idx" ON "webhook_events" USING btree ("tx_id","seq");--> statement-breakpoint
ALTER TABLE "webhook_events" ATTACH PARTITION "webhook_events_legacy" DEFAULT;--> statement-breakpoint
-- upgrade-safe since v0.1.0: the parent keeps the old name and columns
ALTER TABLE "webhook_deliveries" RENAME TO "webhook_deliveries_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER TABLE "webhook_deliveries_legacy" RENAME CONSTRAINT "webhook_deliveries_pkey" TO "webhook_deliveries_pkey_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "webhook_deliveries_chain_idx" RENAME TO "webhook_deliveries_chain_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "webhook_deliveries_due_idx" RENAME TO "webhook_deliveries_due_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "webhook_deliveries_endpoint_idx" RENAME TO "webhook_deliveries_endpoint_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "webhook_deliveries_message_idx" RENAME TO "webhook_deliveries_message_idx_legacy";--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (LIKE "webhook_deliveries_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("id" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_chain_idx" ON "webhook_deliveries" USING btree ("endpoint_id","email_message_id","event_seq");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_message_idx" ON "webhook_deliveries" USING btree ("workspace_id","email_message_id");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ATTACH PARTITION "webhook_deliveries_legacy" DEFAULT;--> statement-breakpoint
-- upgrade-safe since v0.1.0: the parent keeps the old name and columns
ALTER TABLE "webhook_attempts" RENAME TO "webhook_attempts_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only
ALTER TABLE "webhook_attempts_legacy" RENAME CONSTRAINT "webhook_attempts_pkey" TO "webhook_attempts_pkey_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "webhook_attempts_created_idx" RENAME TO "webhook_attempts_created_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "webhook_attempts_delivery_idx" RENAME TO "webhook_attempts_delivery_idx_legacy";--> statement-breakpoint
-- No primary key on the parent (it would have to hold the delivery id): each partition's own key on id, and its key
-- to the deliveries' partition of the same range, made by the partition manager.
CREATE TABLE "webhook_attempts" (LIKE "webhook_attempts_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("delivery_id" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempts_created_idx" ON "webhook_attempts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","created_at");--> statement-breakpoint
ALTER TABLE "webhook_attempts" ATTACH PARTITION "webhook_attempts_legacy" DEFAULT;
