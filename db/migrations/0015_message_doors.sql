-- The door a message came in by (docs/dashboard.md#how-it-was-sent). Expand only: nullable without a default, so code
-- from before it keeps inserting rows (left empty) and adding it rewrites no table.
ALTER TABLE "email_messages" ADD COLUMN "submitted_via" text;
