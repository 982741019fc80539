CREATE TABLE "resend_handoffs" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"message_ids" text[] NOT NULL,
	"emails" json,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "resend_handoffs_message_ids_idx" ON "resend_handoffs" USING gin ("message_ids");--> statement-breakpoint
CREATE INDEX "resend_handoffs_created_at_idx" ON "resend_handoffs" USING btree ("created_at");