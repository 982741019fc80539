-- Tags (docs/api.md#tags). Expand only: both columns are defaulted, so code from before tags keeps writing rows
-- (an empty array) and rows from before read as untagged; a constant default adds the column without rewriting the table.
ALTER TABLE "email_messages" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "workflow_runs" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "email_messages_tags_idx" ON "email_messages" USING gin ("tags");