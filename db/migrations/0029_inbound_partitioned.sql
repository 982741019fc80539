-- Hand-written (docs/architecture.md#partitioned-by-day): inbound mail (inbound_messages and its raw bytes) becomes
-- partitioned by day of id, as the messages (0022), the webhook log (0027) and the request log (0028) did, so that
-- retention drops a day instead of deleting its rows. A partitioned table cannot hold a unique key without its
-- partition key, so the (workspace, dedupe key) that keeps a retried mail from being stored twice moves to a table of
-- its own, filled here from the stored mail (one read of it). The old tables are renamed and attached, unscanned, as
-- the DEFAULT partitions of new parents of the old names, which take their indexes' names and keys; the old table
-- keeps its unique dedupe index (unused, dropped with it). No release stored inbound mail before this one's series
-- (inbound came with 0016, after v0.1.0), so no earlier process inserts with the dedupe index as its conflict target.
CREATE TABLE "inbound_dedupe_keys" (
	"workspace_id" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"inbound_message_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbound_dedupe_keys_workspace_id_dedupe_key_pk" PRIMARY KEY("workspace_id","dedupe_key")
);--> statement-breakpoint
ALTER TABLE "inbound_dedupe_keys" ADD CONSTRAINT "inbound_dedupe_keys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_dedupe_keys_created_idx" ON "inbound_dedupe_keys" USING btree ("workspace_id","created_at");--> statement-breakpoint
INSERT INTO "inbound_dedupe_keys" ("workspace_id", "dedupe_key", "inbound_message_id", "created_at")
  SELECT "workspace_id", "dedupe_key", "id", "created_at" FROM "inbound_messages" ON CONFLICT DO NOTHING;--> statement-breakpoint
-- upgrade-safe since v0.1.0: the parent keeps the old name and columns; every release's statements still reach the rows
ALTER TABLE "inbound_messages" RENAME TO "inbound_messages_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER TABLE "inbound_messages_legacy" RENAME CONSTRAINT "inbound_messages_pkey" TO "inbound_messages_pkey_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only
ALTER INDEX "inbound_messages_dedupe_idx" RENAME TO "inbound_messages_dedupe_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "inbound_messages_message_id_idx" RENAME TO "inbound_messages_message_id_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "inbound_messages_original_idx" RENAME TO "inbound_messages_original_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "inbound_messages_retention_idx" RENAME TO "inbound_messages_retention_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "inbound_messages_thread_idx" RENAME TO "inbound_messages_thread_idx_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER INDEX "inbound_messages_workspace_created_idx" RENAME TO "inbound_messages_workspace_created_idx_legacy";--> statement-breakpoint
-- INCLUDING COMPRESSION: the bodies and headers keep lz4 where migration 0023 set it.
CREATE TABLE "inbound_messages" (LIKE "inbound_messages_legacy" INCLUDING DEFAULTS INCLUDING COMPRESSION) PARTITION BY RANGE ("id" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_pkey" PRIMARY KEY ("id");--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_inbound_domain_id_inbound_domains_id_fk" FOREIGN KEY ("inbound_domain_id") REFERENCES "public"."inbound_domains"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_route_id_inbound_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "public"."inbound_routes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_thread_id_inbound_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."inbound_threads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_messages_message_id_idx" ON "inbound_messages" USING btree ("workspace_id","message_id_header") WHERE "message_id_header" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "inbound_messages_original_idx" ON "inbound_messages" USING btree ("original_message_id") WHERE "original_message_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "inbound_messages_retention_idx" ON "inbound_messages" USING btree ("workspace_id","created_at","id") WHERE "content_purged_at" IS NULL;--> statement-breakpoint
CREATE INDEX "inbound_messages_thread_idx" ON "inbound_messages" USING btree ("thread_id","created_at") WHERE "thread_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "inbound_messages_workspace_created_idx" ON "inbound_messages" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
ALTER TABLE "inbound_messages" ATTACH PARTITION "inbound_messages_legacy" DEFAULT;--> statement-breakpoint
-- upgrade-safe since v0.1.0: the parent keeps the old name and columns
ALTER TABLE "inbound_message_raw" RENAME TO "inbound_message_raw_legacy";--> statement-breakpoint
-- upgrade-safe since v0.1.0: a name only, which the new parent takes
ALTER TABLE "inbound_message_raw_legacy" RENAME CONSTRAINT "inbound_message_raw_pkey" TO "inbound_message_raw_pkey_legacy";--> statement-breakpoint
-- Its key to the mail stays on the old pair (it points at the renamed table, where its rows are); each day's
-- partitions get their own from the partition manager.
CREATE TABLE "inbound_message_raw" (LIKE "inbound_message_raw_legacy" INCLUDING DEFAULTS INCLUDING COMPRESSION) PARTITION BY RANGE ("inbound_message_id" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "inbound_message_raw" ADD CONSTRAINT "inbound_message_raw_pkey" PRIMARY KEY ("inbound_message_id");--> statement-breakpoint
ALTER TABLE "inbound_message_raw" ATTACH PARTITION "inbound_message_raw_legacy" DEFAULT;
