CREATE TABLE "domain_requirement_checks" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"domain_id" text NOT NULL,
	"checked_at" timestamp (3) with time zone NOT NULL,
	"status" text NOT NULL,
	"lines" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domain_requirement_checks" ADD CONSTRAINT "domain_requirement_checks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_requirement_checks" ADD CONSTRAINT "domain_requirement_checks_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "domain_requirement_checks_domain_idx" ON "domain_requirement_checks" USING btree ("domain_id","checked_at");