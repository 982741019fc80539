/** What a storage driver knows of the stored bytes. */
export interface StoredObject {
  size: number;
  /** Recorded by the store (S3 keeps the PUT's Content-Type); null when the store keeps none. */
  contentType: string | null;
  modifiedAt: Date;
}

export interface UploadTarget {
  attachmentId: string;
  key: string;
  expiresAt: Date;
  /** Who may upload: the API key id that created the attachment, or its workspace id. */
  credential: string;
}

/** Bytes received and written aside: `commit` makes them the attachment's, `discard` drops them. */
export interface StagedUpload {
  size: number;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** Keys are `attachments/<workspace>/<attachment>`; every method is idempotent. */
export interface AttachmentStorage {
  readonly driver: "local" | "s3";
  /** A URL the caller PUTs the bytes to with no other credentials, valid until `expiresAt`. */
  uploadUrl(target: UploadTarget): Promise<string>;
  /** For drivers whose upload URL is this service: streamed to disk, PAYLOAD_TOO_LARGE past `maxBytes` without buffering. */
  receive?(key: string, body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<StagedUpload>;
  /** Size (and content type) of the stored bytes, or null when nothing is stored under `key`. */
  stat(key: string): Promise<StoredObject | null>;
  read(key: string): Promise<Buffer | null>;
  /** Bytes this service already holds (an inbound mail's attachments), stored under `key` in one step. */
  write(key: string, bytes: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export function storageKey(workspaceId: string, attachmentId: string): string {
  return `attachments/${workspaceId}/${attachmentId}`;
}
