CREATE TABLE "dmarc_report_records" (
	"report_id" text NOT NULL,
	"position" integer NOT NULL,
	"workspace_id" text NOT NULL,
	"source_ip" text NOT NULL,
	"reverse_dns" text,
	"count" integer NOT NULL,
	"disposition" text NOT NULL,
	"dkim_aligned" boolean NOT NULL,
	"spf_aligned" boolean NOT NULL,
	"header_from" text NOT NULL,
	"dkim_result" text,
	"dkim_domain" text,
	"spf_result" text,
	"spf_domain" text,
	CONSTRAINT "dmarc_report_records_report_id_position_pk" PRIMARY KEY("report_id","position")
);
--> statement-breakpoint
CREATE TABLE "dmarc_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"domain_id" text NOT NULL,
	"inbound_message_id" text,
	"org_name" text NOT NULL,
	"email" text,
	"report_id" text NOT NULL,
	"begin_at" timestamp (3) with time zone NOT NULL,
	"end_at" timestamp (3) with time zone NOT NULL,
	"policy" text NOT NULL,
	"subdomain_policy" text,
	"pct" integer,
	"adkim" text,
	"aspf" text,
	"message_count" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dmarc_report_records" ADD CONSTRAINT "dmarc_report_records_report_id_dmarc_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."dmarc_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dmarc_reports" ADD CONSTRAINT "dmarc_reports_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dmarc_reports" ADD CONSTRAINT "dmarc_reports_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dmarc_reports_reporter_idx" ON "dmarc_reports" USING btree ("workspace_id","org_name","report_id");--> statement-breakpoint
CREATE INDEX "dmarc_reports_domain_idx" ON "dmarc_reports" USING btree ("domain_id","end_at");