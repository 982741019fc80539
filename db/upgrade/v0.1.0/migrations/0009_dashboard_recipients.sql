CREATE TABLE "email_message_recipients" (
	"workspace_id" text NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"email_message_id" text NOT NULL,
	CONSTRAINT "email_message_recipients_workspace_id_address_created_at_email_message_id_pk" PRIMARY KEY("workspace_id","address","created_at","email_message_id")
);
--> statement-breakpoint
-- Hand-written: the backfill (before the foreign key, which then validates in one pass).
INSERT INTO email_message_recipients (workspace_id, address, created_at, email_message_id)
SELECT DISTINCT m.workspace_id, a.address, m.created_at, m.id FROM email_messages m, unnest(m.to_addresses) AS a(address);
--> statement-breakpoint
DROP INDEX "email_messages_to_idx";--> statement-breakpoint
ALTER TABLE "email_message_recipients" ADD CONSTRAINT "email_message_recipients_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written: each insert into email_messages files its recipients in the same statement's
-- transaction (to_addresses is set once, at acceptance, and never updated).
CREATE FUNCTION email_message_recipients_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO email_message_recipients (workspace_id, address, created_at, email_message_id)
  SELECT n.workspace_id, a.address, n.created_at, n.id FROM new_rows n, unnest(n.to_addresses) AS a(address)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER email_messages_recipients_insert AFTER INSERT ON email_messages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_message_recipients_insert();
