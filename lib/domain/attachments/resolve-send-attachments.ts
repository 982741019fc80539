import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { attachments, type StoredAttachment } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { AppError, invalidParameter } from "@/lib/foundation/errors";
import type { AttachmentInput } from "@/lib/domain/messages/schemas";
import type { AttachmentRow } from "./create-attachment";
import { MAX_MESSAGE_ATTACHMENT_BYTES, MAX_UPLOAD_BYTES } from "./schemas";
import { getAttachmentStorage } from "./storage";

const INLINE_ATTACHMENTS_MAX_BYTES = 5 * 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A send's `attachments` as stored (docs/api.md#decided-attachments): inline ones decoded and capped, uploaded ones
 * by id; an unknown, foreign, pending or expired id is the same 400. With S3 a PENDING one is confirmed at the store.
 */
export async function resolveSendAttachments(
  db: Executor,
  workspaceId: string,
  inputs: AttachmentInput[],
  p: (name: string) => string,
  /** SMTP submission raises it to the per-message total: its SIZE limit already bounds the mail. */
  inlineMaxBytes = INLINE_ATTACHMENTS_MAX_BYTES,
): Promise<StoredAttachment[]> {
  const at = (index: number, name: string) => p(`attachments[${index}].${name}`);
  const uploaded = await loadUploaded(db, workspaceId, inputs);
  let inline = 0;
  let total = 0;
  const stored: StoredAttachment[] = [];
  for (const [index, input] of inputs.entries()) {
    if (input.attachmentId !== undefined && input.contentBlob !== undefined) {
      throw invalidParameter(at(index, "attachmentId"), "Give either contentBlob or attachmentId, not both.");
    }
    const { name, contentType, cid } = input;
    if (input.attachmentId !== undefined) {
      const row = await usableAttachment(
        db,
        uploaded.get(input.attachmentId),
        input.attachmentId,
        at(index, "attachmentId"),
      );
      total += row.size ?? 0;
      if (total > MAX_MESSAGE_ATTACHMENT_BYTES) throw messageTooLarge(at(index, "attachmentId"));
      stored.push({ name, contentType, size: row.size ?? 0, ...(cid ? { cid } : {}), attachmentId: row.id });
      continue;
    }
    if (input.contentBlob === undefined)
      throw invalidParameter(at(index, "contentBlob"), "contentBlob (base64) or attachmentId is required.");
    const blob = input.contentBlob.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(blob) || blob.length % 4 === 1)
      throw invalidParameter(at(index, "contentBlob"), "contentBlob must be base64.");
    const size = Buffer.byteLength(blob, "base64");
    inline += size;
    total += size;
    if (inline > inlineMaxBytes) {
      throw new AppError(
        "PAYLOAD_TOO_LARGE",
        "Inline attachments may total at most 5 MB per message (decoded); upload larger files with POST /v1/attachments.",
        { param: at(index, "contentBlob") },
      );
    }
    if (total > MAX_MESSAGE_ATTACHMENT_BYTES) throw messageTooLarge(at(index, "contentBlob"));
    stored.push({ name, contentType, size, cid, contentBase64: blob });
  }
  return stored;
}

async function loadUploaded(
  db: Executor,
  workspaceId: string,
  inputs: AttachmentInput[],
): Promise<Map<string, AttachmentRow>> {
  const ids = [...new Set(inputs.flatMap((input) => (input.attachmentId === undefined ? [] : [input.attachmentId])))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(attachments)
    .where(and(eq(attachments.workspaceId, workspaceId), inArray(attachments.id, ids)));
  return new Map(rows.map((row) => [row.id, row]));
}

async function usableAttachment(
  db: Executor,
  row: AttachmentRow | undefined,
  id: string,
  param: string,
): Promise<AttachmentRow> {
  if (!row)
    throw invalidParameter(
      param,
      `Attachment ${id} does not exist: create it with POST /v1/attachments and upload its bytes first.`,
    );
  const confirmed = row.status === "UPLOADED" ? row : await confirmStoreUpload(db, row, param);
  if (!confirmed)
    throw invalidParameter(param, `Attachment ${id} has not been uploaded yet: PUT its bytes to its uploadUrl first.`);
  const retentionDays = env().ATTACHMENT_RETENTION_DAYS;
  const keptUntil = (confirmed.uploadedAt ?? confirmed.createdAt).getTime() + retentionDays * DAY_MS;
  if (keptUntil <= Date.now()) {
    throw invalidParameter(
      param,
      `Attachment ${id} has expired: uploaded attachments are kept ${retentionDays} days. Upload it again.`,
    );
  }
  return confirmed;
}

/** S3 driver: the caller PUT straight to the store, so the store is asked whether the object is there. */
async function confirmStoreUpload(db: Executor, row: AttachmentRow, param: string): Promise<AttachmentRow | null> {
  const storage = await getAttachmentStorage();
  if (storage.receive) return null; // local uploads are recorded when they arrive
  const object = await storage.stat(row.storageKey);
  if (!object) return null;
  if (object.size > MAX_UPLOAD_BYTES) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `Attachment ${row.id} is ${object.size} bytes; an uploaded attachment may be at most 40 MB.`,
      { param },
    );
  }
  const [updated] = await db
    .update(attachments)
    .set({
      status: "UPLOADED",
      size: object.size,
      contentType: row.contentType ?? object.contentType,
      uploadedAt: object.modifiedAt,
      updatedAt: new Date(),
    })
    .where(and(eq(attachments.workspaceId, row.workspaceId), eq(attachments.id, row.id)))
    .returning();
  return updated;
}

function messageTooLarge(param: string): AppError {
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    "A message's attachments may total at most 40 MB (inline and uploaded together).",
    { param },
  );
}
