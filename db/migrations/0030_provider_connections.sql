CREATE TABLE "connection_leases" (
	"connection" text NOT NULL,
	"lease" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "connection_leases_connection_lease_pk" PRIMARY KEY("connection","lease")
);
--> statement-breakpoint
CREATE TABLE "connection_rate_windows" (
	"connection" text PRIMARY KEY NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_circuits" (
	"workspace_id" text NOT NULL,
	"connection" text NOT NULL,
	"state" text DEFAULT 'closed' NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"failing_since" timestamp (3) with time zone,
	"retry_at" timestamp (3) with time zone,
	"last_error" text,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_circuits_workspace_id_connection_pk" PRIMARY KEY("workspace_id","connection")
);
--> statement-breakpoint
CREATE TABLE "provider_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secrets" text,
	"previous_secrets" text,
	"previous_secrets_until" timestamp (3) with time zone,
	"rate_per_second" integer,
	"concurrency" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "routing_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text,
	"match" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"connections" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "connection_id" text;--> statement-breakpoint
ALTER TABLE "provider_circuits" ADD CONSTRAINT "provider_circuits_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_connections" ADD CONSTRAINT "provider_connections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "routing_rules" ADD CONSTRAINT "routing_rules_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_connections_name_idx" ON "provider_connections" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE INDEX "routing_rules_workspace_idx" ON "routing_rules" USING btree ("workspace_id","position","created_at");