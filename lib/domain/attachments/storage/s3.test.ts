import { createHash, createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { attachments, localInbox } from "@/db/schema";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { sendMessage } from "@/lib/sending/send-message";
import { createAttachment } from "../create-attachment";
import { purgeExpiredAttachments } from "../purge-expired-attachments";
import { uploadTo, withStorageEnv } from "../testing";
import { uploadQuery } from "../upload-signature";
import { createS3Storage } from "./s3";

/**
 * The S3 driver against s3rver, an S3-compatible server run in-process (pure JavaScript). s3rver does
 * not check SigV4 signatures, so the presigned URL's signature is checked here by an independent
 * implementation of AWS's algorithm; s3rver does enforce the expiry.
 */
const BUCKET = "postwerk-attachments";
const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
let server: S3rver;
let endpoint = "";
let directory = "";

beforeAll(async () => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-s3rver-"));
  server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(directory, { recursive: true, force: true });
});
withStorageEnv(() => ({
  STORAGE_DRIVER: "s3",
  S3_ENDPOINT: endpoint,
  S3_BUCKET: BUCKET,
  S3_REGION: "eu-central-1",
  S3_ACCESS_KEY_ID: credentials.accessKeyId,
  S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  S3_FORCE_PATH_STYLE: "true",
}));

const driver = () =>
  createS3Storage({ bucket: BUCKET, region: "eu-central-1", endpoint, forcePathStyle: true, credentials });

/** AWS Signature Version 4, query-string form, written from AWS's documentation. */
function sigV4Valid(url: URL, secretAccessKey: string, method = "PUT"): boolean {
  const encode = (value: string) =>
    encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = [...url.searchParams.entries()]
    .filter(([name]) => name !== "X-Amz-Signature")
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .sort()
    .join("&");
  const signedHeaders = url.searchParams.get("X-Amz-SignedHeaders");
  const canonical = [method, url.pathname, query, `host:${url.host}\n`, signedHeaders, "UNSIGNED-PAYLOAD"].join("\n");
  const [, date, region, service] = url.searchParams.get("X-Amz-Credential")!.split("/");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = [
    "AWS4-HMAC-SHA256",
    url.searchParams.get("X-Amz-Date"),
    scope,
    createHash("sha256").update(canonical).digest("hex"),
  ].join("\n");
  const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
  const key = [date, region, service, "aws4_request"].reduce<Buffer | string>(
    (k, part) => hmac(k, part),
    `AWS4${secretAccessKey}`,
  );
  return signedHeaders === "host" && hmac(key, toSign).toString("hex") === url.searchParams.get("X-Amz-Signature");
}

describe("S3 driver", () => {
  it("presigns a PUT valid 3600 s, signed with SigV4 for the bucket's region, with no checksum of an empty body", async () => {
    const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 3600_000);
    const url = new URL(
      await driver().uploadUrl({
        attachmentId: "attachment_x",
        key: "attachments/ws_a/attachment_x",
        expiresAt,
        credential: "key_x",
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(`${endpoint}/${BUCKET}/attachments/ws_a/attachment_x`);
    const q = url.searchParams;
    expect(q.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(q.get("X-Amz-Expires")).toBe("3600");
    const signedAt = new Date(expiresAt.getTime() - 3600_000).toISOString().replace(/[-:]|\.\d{3}/g, "");
    expect(q.get("X-Amz-Date")).toBe(signedAt);
    expect(q.get("X-Amz-Credential")).toBe(`S3RVER/${signedAt.slice(0, 8)}/eu-central-1/s3/aws4_request`);
    expect(q.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect([...q.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);
    expect(sigV4Valid(url, credentials.secretAccessKey)).toBe(true);
    expect(sigV4Valid(url, "another secret")).toBe(false);
    const moved = new URL(url);
    moved.pathname = moved.pathname.replace("attachment_x", "attachment_y");
    expect(sigV4Valid(moved, credentials.secretAccessKey)).toBe(false);
  });

  it("the store takes the presigned PUT; stat, read and delete see it; an expired URL is refused", async () => {
    const storage = driver();
    const key = "attachments/ws_b/attachment_1";
    const bytes = randomBytes(70_000);
    const url = await storage.uploadUrl({
      attachmentId: "attachment_1",
      key,
      expiresAt: new Date(Date.now() + 3600_000),
      credential: "key_x",
    });
    const put = await fetch(url, { method: "PUT", body: bytes, headers: { "content-type": "image/png" } });
    expect(put.status).toBe(200);
    expect(await storage.stat(key)).toMatchObject({ size: 70_000, contentType: "image/png" });
    expect((await storage.read(key))!.equals(bytes)).toBe(true);
    await storage.delete(key);
    await storage.delete(key); // idempotent
    expect(await storage.stat(key)).toBeNull();
    expect(await storage.read(key)).toBeNull();

    const expired = await storage.uploadUrl({
      attachmentId: "attachment_2",
      key: "attachments/ws_b/attachment_2",
      expiresAt: new Date(Date.now() - 1000),
      credential: "key_x",
    });
    const refused = await fetch(expired, { method: "PUT", body: "late" });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/expired/);
    expect(await storage.stat("attachments/ws_b/attachment_2")).toBeNull();
  });

  it("write stores bytes this service holds (inbound attachments) with their content type", async () => {
    const storage = driver();
    const key = `attachments/ws_write/inatt_${Date.now()}`;
    await storage.write(key, Buffer.from("a,b\n1,2\n"), "text/csv");
    expect((await storage.read(key))?.toString()).toBe("a,b\n1,2\n");
    expect(await storage.stat(key)).toMatchObject({ size: 8, contentType: "text/csv" });
    await storage.delete(key);
  });
});

describe("attachments with STORAGE_DRIVER=s3", () => {
  it("create → PUT to the store → send (recorded UPLOADED on first use) → delivery reads the object → purge deletes it", async () => {
    const ws = await createTestWorkspace();
    const { attachment, uploadUrl } = await createAttachment({
      workspaceId: ws.workspace.id,
      credential: ws.key.id,
      body: { name: "photo.png" },
    });
    expect(uploadUrl.startsWith(`${endpoint}/${BUCKET}/attachments/${ws.workspace.id}/${attachment.id}?`)).toBe(true);
    const body = {
      from: "hello@example.com",
      to: "ada@example.org",
      subject: "Photo",
      bodyHtml: "<p>Photo attached</p>",
      attachments: [{ name: "photo.png", contentType: "image/png", attachmentId: attachment.id }],
    };
    const send = () => sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body });
    await expect(send()).rejects.toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      param: "attachments[0].attachmentId",
      message: expect.stringMatching(/not been uploaded/),
    });

    const bytes = randomBytes(5000);
    expect(
      (await fetch(uploadUrl, { method: "PUT", body: bytes, headers: { "content-type": "image/png" } })).status,
    ).toBe(200);
    const { message } = await send();
    const db = await getDb();
    const [row] = await db.select().from(attachments).where(eq(attachments.id, attachment.id));
    expect(row).toMatchObject({ status: "UPLOADED", size: 5000, contentType: "image/png", name: "photo.png" });
    expect(row.uploadedAt).not.toBeNull();

    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    const [inbox] = await db.select().from(localInbox).where(eq(localInbox.emailMessageId, message.id));
    const encoded = bytes.toString("base64");
    expect(inbox.mime.replace(/\r\n/g, "")).toContain(encoded);

    // This service's own upload route does not take bytes for an S3-backed deployment.
    const local = new URL(
      `http://localhost:3000/api/uploads/${attachment.id}?${uploadQuery({ attachmentId: attachment.id, expires: Math.floor(Date.now() / 1000) + 60, credential: ws.key.id })}`,
    );
    await expect(uploadTo(local.toString(), Buffer.from("x"))).rejects.toMatchObject({ code: "NOT_FOUND" });

    await db
      .update(attachments)
      .set({ uploadedAt: new Date(Date.now() - 31 * 24 * 3600_000) })
      .where(eq(attachments.id, attachment.id));
    expect(await purgeExpiredAttachments()).toEqual({ purged: 1 });
    expect(await driver().stat(row.storageKey)).toBeNull();
  });
});
