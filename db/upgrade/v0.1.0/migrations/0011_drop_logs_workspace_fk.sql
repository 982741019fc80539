ALTER TABLE "email_message_logs" DROP CONSTRAINT "email_message_logs_workspace_id_workspaces_id_fk";
