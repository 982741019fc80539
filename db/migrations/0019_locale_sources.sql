ALTER TABLE "email_messages" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "requested_locale" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "locale" text;