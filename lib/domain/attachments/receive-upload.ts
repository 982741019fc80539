import "server-only";
import { and, eq, gte, isNull, sql } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { apiKeys, attachments, emailMessages } from "@/db/schema";
import { AppError, notFound } from "@/lib/foundation/errors";
import type { AttachmentRow } from "./create-attachment";
import { MAX_UPLOAD_BYTES } from "./schemas";
import { getAttachmentStorage } from "./storage";
import { verifyUploadGrant } from "./upload-signature";

export interface UploadRequest {
  attachmentId: string;
  query: URLSearchParams;
  contentType: string | null;
  contentLength: string | null;
  body: ReadableStream<Uint8Array> | null;
}

/**
 * The signed URL is the only credential; the body is streamed to disk while counted. A second PUT replaces the bytes
 * until a live message used them; then 409, since queued mail must send what was accepted.
 */
export async function receiveUpload(request: UploadRequest): Promise<{ attachment: AttachmentRow; uploadUrl: string }> {
  const grant = verifyUploadGrant(request.attachmentId, request.query);
  const db = await getDb();
  const workspaceId = await credentialWorkspace(db, grant.credential);
  const [attachment] = await db
    .select()
    .from(attachments)
    .where(and(eq(attachments.workspaceId, workspaceId), eq(attachments.id, grant.attachmentId)));
  if (!attachment) throw notFound(`Attachment ${grant.attachmentId}`);
  const storage = await getAttachmentStorage();
  if (!storage.receive)
    throw notFound(
      `Upload target ${grant.attachmentId} (this deployment stores attachments in S3: use the uploadUrl it returns)`,
    );
  const declared = Number(request.contentLength ?? "NaN");
  if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `Content-Length is ${declared} bytes; an uploaded attachment may be at most 40 MB; nothing was stored.`,
    );
  }
  await assertNotSent(db, attachment);
  const staged = await storage.receive(attachment.storageKey, request.body, MAX_UPLOAD_BYTES);
  try {
    await assertNotSent(db, attachment);
    await staged.commit();
  } catch (error) {
    await staged.discard();
    throw error;
  }
  const now = new Date();
  const [uploaded] = await db
    .update(attachments)
    .set({
      status: "UPLOADED",
      size: staged.size,
      contentType: attachment.contentType ?? cleanContentType(request.contentType),
      uploadedAt: now,
      updatedAt: now,
    })
    .where(and(eq(attachments.workspaceId, workspaceId), eq(attachments.id, attachment.id)))
    .returning();
  const uploadUrl = await storage.uploadUrl({
    attachmentId: attachment.id,
    key: attachment.storageKey,
    expiresAt: new Date(grant.expires * 1000),
    credential: grant.credential,
  });
  return { attachment: uploaded, uploadUrl };
}

/** The workspace a signed credential stands for: a live API key's, or a workspace id itself. */
async function credentialWorkspace(db: Executor, credential: string): Promise<string> {
  if (credential.startsWith("ws_")) return credential;
  const [key] = await db
    .select({ workspaceId: apiKeys.workspaceId })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, credential), isNull(apiKeys.revokedAt)));
  if (!key)
    throw new AppError(
      "UNAUTHORIZED",
      "The API key that created this upload URL has been revoked: create a new attachment.",
    );
  return key.workspaceId;
}

/** Only messages created since the attachment can carry it, so this scans at most the upload window's mail. */
async function assertNotSent(db: Executor, attachment: AttachmentRow): Promise<void> {
  const m = emailMessages;
  const [used] = await db
    .select({ id: m.id })
    .from(m)
    .where(
      and(
        eq(m.workspaceId, attachment.workspaceId),
        gte(m.createdAt, attachment.createdAt),
        eq(m.sandbox, false),
        sql`${m.attachments} @> ${JSON.stringify([{ attachmentId: attachment.id }])}::jsonb`,
      ),
    )
    .limit(1);
  if (used) {
    throw new AppError(
      "CONFLICT",
      `Attachment ${attachment.id} was already sent with message ${used.id}; its bytes can no longer change. Create a new attachment.`,
    );
  }
}

function cleanContentType(value: string | null): string | null {
  const trimmed = value?.trim();
  return trimmed && trimmed.length <= 255 && /^[\w.+-]+\/[\w.+-]+/.test(trimmed) ? trimmed : null;
}
