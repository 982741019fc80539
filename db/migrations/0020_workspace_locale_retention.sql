ALTER TABLE "workspaces" ADD COLUMN "default_locale" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "body_retention_days" integer;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "metadata_retention_days" integer;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "legal_hold" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "legal_hold_at" timestamp (3) with time zone;