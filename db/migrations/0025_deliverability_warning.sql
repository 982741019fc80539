ALTER TABLE "workspaces" ADD COLUMN "deliverability_warning" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "deliverability_warning_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "data" jsonb;