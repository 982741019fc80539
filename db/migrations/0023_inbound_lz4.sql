-- Hand-written (docs/inbound.md#storage): a received mail's bodies, headers and raw bytes (~40 KB a mail) are
-- compressed with lz4 instead of pglz where the server was built with it (Debian's and most distributions'
-- PostgreSQL 14+ are; PGlite is not and keeps pglz). lz4 costs PostgreSQL about a third of pglz's CPU for a
-- slightly larger TOAST (bench:inbound, docs/benchmarks.md). Only the column's setting changes: no rows are read
-- or rewritten, values stored before keep their compression, and a value is readable whichever it was written with.
DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)
  ) THEN
    ALTER TABLE "inbound_messages" ALTER COLUMN "text_body" SET COMPRESSION lz4,
      ALTER COLUMN "html_body" SET COMPRESSION lz4,
      ALTER COLUMN "headers" SET COMPRESSION lz4;
    ALTER TABLE "inbound_message_raw" ALTER COLUMN "raw" SET COMPRESSION lz4;
  END IF;
END $$;
