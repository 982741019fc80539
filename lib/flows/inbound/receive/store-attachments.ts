import "server-only";
import type { InboundAttachmentJson } from "@/db/schema";
import { getAttachmentStorage, storageKey } from "@/lib/domain/attachments/storage";
import { newId } from "@/lib/foundation/ids";
import type { ParsedAttachment } from "@/lib/flows/inbound/parse/types";

/**
 * Written before the storing transaction (storage is no database): a crash between leaves unreferenced bytes, never a
 * row naming bytes that are not there. Keyed like outbound attachments, `attachments/<workspace>/<inatt_…>`.
 */
export async function storeInboundAttachments(
  workspaceId: string,
  attachments: ParsedAttachment[],
): Promise<InboundAttachmentJson[]> {
  if (attachments.length === 0) return [];
  const storage = await getAttachmentStorage();
  const stored: InboundAttachmentJson[] = [];
  for (const attachment of attachments) {
    const id = newId("inboundAttachment");
    const key = storageKey(workspaceId, id);
    await storage.write(key, attachment.content, attachment.contentType);
    stored.push({
      id,
      filename: attachment.filename,
      contentType: attachment.contentType,
      size: attachment.size,
      contentId: attachment.contentId,
      inline: attachment.inline,
      storageKey: key,
    });
  }
  return stored;
}
