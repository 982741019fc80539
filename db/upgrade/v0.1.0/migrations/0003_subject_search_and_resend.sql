-- pg_trgm backs email_messages_subject_trgm_idx (docs/dashboard/emails.md#searching-by-subject); PGlite loads its bundle in db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "resent_from_id" text;--> statement-breakpoint
ALTER TABLE "email_messages" ADD CONSTRAINT "email_messages_resent_from_id_email_messages_id_fk" FOREIGN KEY ("resent_from_id") REFERENCES "public"."email_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_messages_subject_trgm_idx" ON "email_messages" USING gin ("subject" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "email_messages_resent_from_idx" ON "email_messages" USING btree ("resent_from_id") WHERE "email_messages"."resent_from_id" is not null;