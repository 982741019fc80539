ALTER TABLE "email_messages" ADD COLUMN "scheduled_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "handed_over_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "email_messages_scheduled_idx" ON "email_messages" USING btree ("workspace_id","scheduled_at") WHERE "email_messages"."scheduled_at" is not null;