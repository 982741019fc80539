import "server-only";
import { env } from "@/lib/foundation/env";
import type { AttachmentStorage } from "./types";

export { storageKey, type AttachmentStorage, type StagedUpload, type StoredObject } from "./types";

let cached: Promise<AttachmentStorage> | undefined;

/** The AWS SDK is loaded only when the S3 driver is chosen. */
export function getAttachmentStorage(): Promise<AttachmentStorage> {
  cached ??= open().catch((error) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function open(): Promise<AttachmentStorage> {
  const settings = env();
  if (settings.STORAGE_DRIVER === "local") {
    const { createLocalStorage } = await import("./local");
    return createLocalStorage({ dataDir: settings.DATA_DIR, appUrl: settings.APP_URL });
  }
  const { createS3Storage } = await import("./s3");
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = settings;
  return createS3Storage({
    bucket: settings.S3_BUCKET!,
    region: settings.S3_REGION,
    endpoint: settings.S3_ENDPOINT,
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  });
}

/** Tests switch drivers (and DATA_DIR) between files; production never calls this. */
export function resetAttachmentStorageForTests(): void {
  cached = undefined;
}
