CREATE TABLE "overview_day_counts" (
	"workspace_id" text NOT NULL,
	"day" date NOT NULL,
	"sandbox" boolean NOT NULL,
	"shard" integer NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"complained" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "overview_day_counts_workspace_id_day_sandbox_shard_pk" PRIMARY KEY("workspace_id","day","sandbox","shard")
);
--> statement-breakpoint
ALTER TABLE "overview_day_counts" ADD CONSTRAINT "overview_day_counts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written (docs/dashboard/insights.md#how-the-overview-stays-flat): the triggers that keep
-- overview_day_counts, and the backfill. One grouped upsert per statement on email_messages, into
-- rows of the writing backend's own shard; a statement that changes no count writes nothing.
CREATE FUNCTION overview_count_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO overview_day_counts AS c (workspace_id, day, sandbox, shard, accepted, sent, delivered, opened, clicked, bounced, complained, failed)
    SELECT workspace_id, (created_at AT TIME ZONE 'UTC')::date, sandbox, pg_backend_pid(), count(*), count(sent_at), count(delivered_at),
           count(first_opened_at), count(first_clicked_at), count(first_bounced_at), count(first_complained_at), count(errored_at)
    FROM new_rows GROUP BY 1, 2, 3
    ON CONFLICT (workspace_id, day, sandbox, shard) DO UPDATE SET accepted = c.accepted + excluded.accepted, sent = c.sent + excluded.sent,
      delivered = c.delivered + excluded.delivered, opened = c.opened + excluded.opened, clicked = c.clicked + excluded.clicked,
      bounced = c.bounced + excluded.bounced, complained = c.complained + excluded.complained, failed = c.failed + excluded.failed;
  ELSE
    -- An update counts what its new rows have minus what its old rows had: no join needed.
    INSERT INTO overview_day_counts AS c (workspace_id, day, sandbox, shard, accepted, sent, delivered, opened, clicked, bounced, complained, failed)
    SELECT workspace_id, day, sandbox, pg_backend_pid(), sum(accepted), sum(sent), sum(delivered), sum(opened), sum(clicked), sum(bounced), sum(complained), sum(failed)
    FROM (
      SELECT workspace_id, (created_at AT TIME ZONE 'UTC')::date AS day, sandbox, 1 AS accepted, (sent_at IS NOT NULL)::int AS sent,
             (delivered_at IS NOT NULL)::int AS delivered, (first_opened_at IS NOT NULL)::int AS opened, (first_clicked_at IS NOT NULL)::int AS clicked,
             (first_bounced_at IS NOT NULL)::int AS bounced, (first_complained_at IS NOT NULL)::int AS complained, (errored_at IS NOT NULL)::int AS failed
      FROM new_rows
      UNION ALL
      SELECT workspace_id, (created_at AT TIME ZONE 'UTC')::date, sandbox, -1, -(sent_at IS NOT NULL)::int, -(delivered_at IS NOT NULL)::int,
             -(first_opened_at IS NOT NULL)::int, -(first_clicked_at IS NOT NULL)::int, -(first_bounced_at IS NOT NULL)::int,
             -(first_complained_at IS NOT NULL)::int, -(errored_at IS NOT NULL)::int
      FROM old_rows
    ) AS change
    GROUP BY workspace_id, day, sandbox
    HAVING sum(accepted) <> 0 OR sum(sent) <> 0 OR sum(delivered) <> 0 OR sum(opened) <> 0 OR sum(clicked) <> 0 OR sum(bounced) <> 0 OR sum(complained) <> 0 OR sum(failed) <> 0
    ON CONFLICT (workspace_id, day, sandbox, shard) DO UPDATE SET accepted = c.accepted + excluded.accepted, sent = c.sent + excluded.sent,
      delivered = c.delivered + excluded.delivered, opened = c.opened + excluded.opened, clicked = c.clicked + excluded.clicked,
      bounced = c.bounced + excluded.bounced, complained = c.complained + excluded.complained, failed = c.failed + excluded.failed;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER email_messages_overview_insert AFTER INSERT ON email_messages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION overview_count_messages();
--> statement-breakpoint
CREATE TRIGGER email_messages_overview_update AFTER UPDATE ON email_messages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION overview_count_messages();
--> statement-breakpoint
INSERT INTO overview_day_counts (workspace_id, day, sandbox, shard, accepted, sent, delivered, opened, clicked, bounced, complained, failed)
SELECT workspace_id, (created_at AT TIME ZONE 'UTC')::date, sandbox, 0, count(*), count(sent_at), count(delivered_at),
       count(first_opened_at), count(first_clicked_at), count(first_bounced_at), count(first_complained_at), count(errored_at)
FROM email_messages GROUP BY 1, 2, 3;
