-- Inbound mail (docs/inbound.md): domains, routes, threads, messages and their raw bytes. Expand only: new tables, and
-- nullable columns without defaults on email_messages (thread_id) and webhook_events (inbound_message_id).
CREATE TABLE "inbound_domains" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"verified_at" timestamp (3) with time zone,
	"last_checked_at" timestamp (3) with time zone,
	"last_check_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_message_raw" (
	"inbound_message_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"raw" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"inbound_domain_id" text,
	"route_id" text,
	"thread_id" text,
	"original_message_id" text,
	"status" text DEFAULT 'RECEIVED' NOT NULL,
	"quarantine_reason" text,
	"recipient" text NOT NULL,
	"mailbox_hash" text,
	"envelope_from" text DEFAULT '' NOT NULL,
	"envelope_to" text[] DEFAULT '{}'::text[] NOT NULL,
	"remote_ip" text,
	"helo" text,
	"from_address" text,
	"from_name" text,
	"to" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reply_to" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"message_id_header" text,
	"in_reply_to" text,
	"references" text[] DEFAULT '{}'::text[] NOT NULL,
	"text_body" text,
	"html_body" text,
	"stripped_text" text,
	"stripped_signature" text,
	"headers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"size_bytes" integer DEFAULT 0 NOT NULL,
	"spf" text DEFAULT 'none' NOT NULL,
	"dkim" text DEFAULT 'none' NOT NULL,
	"dmarc" text DEFAULT 'none' NOT NULL,
	"arc" text DEFAULT 'none' NOT NULL,
	"auth_details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"spam_status" text DEFAULT 'not_checked' NOT NULL,
	"spam_score" real,
	"action_results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dedupe_key" text NOT NULL,
	"content_purged_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_routes" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"inbound_domain_id" text NOT NULL,
	"name" text,
	"pattern" text NOT NULL,
	"kind" text NOT NULL,
	"local_part" text,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dmarc_fail_action" text DEFAULT 'accept' NOT NULL,
	"spam_threshold" real,
	"spam_action" text DEFAULT 'quarantine' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_threads" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"subject_key" text NOT NULL,
	"participants" text[] DEFAULT '{}'::text[] NOT NULL,
	"last_message_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "thread_id" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "inbound_message_id" text;--> statement-breakpoint
ALTER TABLE "inbound_domains" ADD CONSTRAINT "inbound_domains_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_message_raw" ADD CONSTRAINT "inbound_message_raw_inbound_message_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_message_id") REFERENCES "public"."inbound_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_inbound_domain_id_inbound_domains_id_fk" FOREIGN KEY ("inbound_domain_id") REFERENCES "public"."inbound_domains"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_route_id_inbound_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "public"."inbound_routes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_thread_id_inbound_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."inbound_threads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_routes" ADD CONSTRAINT "inbound_routes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_routes" ADD CONSTRAINT "inbound_routes_inbound_domain_id_inbound_domains_id_fk" FOREIGN KEY ("inbound_domain_id") REFERENCES "public"."inbound_domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_threads" ADD CONSTRAINT "inbound_threads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_domains_name_idx" ON "inbound_domains" USING btree ("name");--> statement-breakpoint
CREATE INDEX "inbound_domains_workspace_idx" ON "inbound_domains" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_messages_dedupe_idx" ON "inbound_messages" USING btree ("workspace_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "inbound_messages_workspace_created_idx" ON "inbound_messages" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "inbound_messages_thread_idx" ON "inbound_messages" USING btree ("thread_id","created_at") WHERE "inbound_messages"."thread_id" is not null;--> statement-breakpoint
CREATE INDEX "inbound_messages_original_idx" ON "inbound_messages" USING btree ("original_message_id") WHERE "inbound_messages"."original_message_id" is not null;--> statement-breakpoint
CREATE INDEX "inbound_messages_message_id_idx" ON "inbound_messages" USING btree ("workspace_id","message_id_header") WHERE "inbound_messages"."message_id_header" is not null;--> statement-breakpoint
CREATE INDEX "inbound_messages_retention_idx" ON "inbound_messages" USING btree ("created_at") WHERE "inbound_messages"."content_purged_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_routes_pattern_idx" ON "inbound_routes" USING btree ("inbound_domain_id","pattern");--> statement-breakpoint
CREATE INDEX "inbound_routes_workspace_idx" ON "inbound_routes" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "inbound_threads_workspace_idx" ON "inbound_threads" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "inbound_threads_subject_idx" ON "inbound_threads" USING btree ("workspace_id","subject_key","last_message_at");--> statement-breakpoint
CREATE INDEX "email_messages_thread_idx" ON "email_messages" USING btree ("thread_id","created_at") WHERE "email_messages"."thread_id" is not null;