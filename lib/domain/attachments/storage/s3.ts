import "server-only";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { UPLOAD_URL_TTL_SECONDS } from "../schemas";
import type { AttachmentStorage } from "./types";

export interface S3StorageConfig {
  bucket: string;
  region: string;
  /** Unset for AWS itself; the store's URL otherwise (MinIO, R2, …). */
  endpoint?: string;
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's default chain (instance or task role, shared config). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** The caller PUTs straight to the store with a presigned URL; this service only reads, inspects and deletes. */
export function createS3Storage(config: S3StorageConfig): AttachmentStorage {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // Else the SDK signs an empty body's CRC32 into the presigned URL and the store refuses the real upload.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = config.bucket;
  return {
    driver: "s3",
    async uploadUrl({ key, expiresAt }) {
      const signingDate = new Date(expiresAt.getTime() - UPLOAD_URL_TTL_SECONDS * 1000);
      return getSignedUrl(client, new PutObjectCommand({ Bucket, Key: key }), {
        expiresIn: UPLOAD_URL_TTL_SECONDS,
        signingDate,
      });
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return {
          size: head.ContentLength ?? 0,
          contentType: head.ContentType ?? null,
          modifiedAt: head.LastModified ?? new Date(),
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async read(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async write(key, bytes, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType }));
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}

function isNotFound(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === "NotFound" || name === "NoSuchKey" || $metadata?.httpStatusCode === 404;
}
