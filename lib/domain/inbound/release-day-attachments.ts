import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { INBOUND_FAMILY, type PartitionFamily } from "@/lib/records/partitions/family";
import { removeAttachmentBytes } from "./erase-inbound-content";

/**
 * Before a day of inbound mail is dropped (lib/records/partitions/drop-expired-partitions.ts): the bytes of its
 * attachments whose content was not purged yet (a held workspace that left hold, or a body window as long as the
 * metadata one) leave the attachment storage, as the batch purge removes them with their rows. Found through
 * inbound_messages_retention_idx: no scan of a day whose content is purged.
 */
export async function releaseDayAttachments(family: PartitionFamily, leafOf: (table: string) => string): Promise<void> {
  if (family !== INBOUND_FAMILY) return;
  const db = await getDb();
  const rows = rowsOf(
    await db.execute(
      sql`select a->>'storageKey' as key from ${sql.identifier(leafOf("inbound_messages"))} m,
            jsonb_array_elements(m.attachments) a
          where m.content_purged_at is null`,
    ),
  );
  await removeAttachmentBytes(rows.map((row) => String(row.key)));
}
