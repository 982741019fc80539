ALTER TABLE "email_message_recipients" DROP CONSTRAINT "email_message_recipients_workspace_id_workspaces_id_fk";
--> statement-breakpoint
-- Hand-written: a deleted message takes its recipient rows along (they have no foreign key, so that
-- accepting a message share-locks the workspace row once less). One statement per deleting statement,
-- each row found by the primary key.
CREATE FUNCTION email_message_recipients_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM email_message_recipients r
  USING old_rows o, unnest(o.to_addresses) AS a(address)
  WHERE r.workspace_id = o.workspace_id AND r.address = a.address AND r.created_at = o.created_at AND r.email_message_id = o.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER email_messages_recipients_delete AFTER DELETE ON email_messages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION email_message_recipients_delete();
