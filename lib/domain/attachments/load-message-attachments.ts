import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { attachments, type StoredAttachment } from "@/db/schema";
import type { MimeAttachment } from "@/lib/delivery/mime/build-mime";
import { getAttachmentStorage } from "./storage";

export type LoadedAttachments = { ok: true; attachments: MimeAttachment[] } | { ok: false; reason: string };

/** Bytes gone since (purged while the message waited) give `ok: false` for the timeline; a storage outage throws, so the job retries. */
export async function loadMessageAttachments(
  db: Executor,
  workspaceId: string,
  stored: StoredAttachment[],
): Promise<LoadedAttachments> {
  const ids = stored.flatMap((attachment) =>
    attachment.contentBase64 === undefined && attachment.attachmentId ? [attachment.attachmentId] : [],
  );
  const keys = new Map<string, string>();
  if (ids.length > 0) {
    const rows = await db
      .select({ id: attachments.id, storageKey: attachments.storageKey })
      .from(attachments)
      .where(and(eq(attachments.workspaceId, workspaceId), inArray(attachments.id, ids)));
    for (const row of rows) keys.set(row.id, row.storageKey);
  }
  const storage = ids.length > 0 ? await getAttachmentStorage() : null;
  const parts: MimeAttachment[] = [];
  for (const attachment of stored) {
    const part = { filename: attachment.name, contentType: attachment.contentType, cid: attachment.cid };
    if (attachment.contentBase64 !== undefined) {
      parts.push({ ...part, content: Buffer.from(attachment.contentBase64, "base64") });
      continue;
    }
    const key = attachment.attachmentId ? keys.get(attachment.attachmentId) : undefined;
    const content = key && storage ? await storage.read(key) : null;
    if (!content) {
      return {
        ok: false,
        reason: `Attachment ${attachment.name} (${attachment.attachmentId ?? "no id"}) is no longer stored: uploaded attachments are kept a limited number of days, and this message waited longer.`,
      };
    }
    parts.push({ ...part, content });
  }
  return { ok: true, attachments: parts };
}
