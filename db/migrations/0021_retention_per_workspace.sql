DROP INDEX "email_messages_retention_idx";--> statement-breakpoint
DROP INDEX "inbound_messages_retention_idx";--> statement-breakpoint
CREATE INDEX "email_messages_retention_idx" ON "email_messages" USING btree ("workspace_id","created_at","id") WHERE "email_messages"."content_purged_at" is null;--> statement-breakpoint
CREATE INDEX "inbound_messages_retention_idx" ON "inbound_messages" USING btree ("workspace_id","created_at","id") WHERE "inbound_messages"."content_purged_at" is null;