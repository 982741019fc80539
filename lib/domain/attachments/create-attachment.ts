import "server-only";
import { getDb } from "@/db/client";
import { attachments } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { dropNulls, isPlainObject, zodToAppError } from "@/lib/foundation/validation.shared";
import { createAttachmentSchema, MAX_UPLOAD_BYTES, UPLOAD_URL_TTL_SECONDS } from "./schemas";
import { getAttachmentStorage, storageKey } from "./storage";

export type AttachmentRow = typeof attachments.$inferSelect;

export interface CreateAttachmentCommand {
  workspaceId: string;
  /** Bound into the upload URL: the creating API key's id (its revocation voids the URL), or the workspace id. */
  credential: string;
  body: unknown;
}

/** Records a PENDING attachment and its upload URL, valid 1 hour (docs/api.md#decided-attachments); a declared size over the cap is refused first. */
export async function createAttachment(
  command: CreateAttachmentCommand,
): Promise<{ attachment: AttachmentRow; uploadUrl: string }> {
  const input = parseBody(command.body);
  const storage = await getAttachmentStorage();
  const id = newId("attachment");
  const now = new Date();
  // Whole seconds: the URL carries the expiry in seconds and expiresAt must say the same instant.
  const expiresAt = new Date((Math.floor(now.getTime() / 1000) + UPLOAD_URL_TTL_SECONDS) * 1000);
  const key = storageKey(command.workspaceId, id);
  const uploadUrl = await storage.uploadUrl({ attachmentId: id, key, expiresAt, credential: command.credential });
  const db = await getDb();
  const [attachment] = await db
    .insert(attachments)
    .values({
      id,
      workspaceId: command.workspaceId,
      name: input.name ?? null,
      contentType: input.contentType ?? null,
      size: input.size ?? null,
      status: "PENDING",
      storageKey: key,
      uploadExpiresAt: expiresAt,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { attachment, uploadUrl };
}

function parseBody(body: unknown) {
  if (body === undefined) return {};
  if (!isPlainObject(body)) throw new AppError("INVALID_JSON", "The request body must be a JSON object (or empty).");
  const parsed = createAttachmentSchema.safeParse(dropNulls(body));
  if (!parsed.success) throw zodToAppError(parsed.error);
  if (parsed.data.size !== undefined && parsed.data.size > MAX_UPLOAD_BYTES) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `size is ${parsed.data.size} bytes; an uploaded attachment may be at most 40 MB (${MAX_UPLOAD_BYTES} bytes).`,
      { param: "size" },
    );
  }
  return parsed.data;
}
