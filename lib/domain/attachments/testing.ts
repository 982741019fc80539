import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { resetEnvForTests } from "@/lib/foundation/env";
import { createAttachment } from "./create-attachment";
import { receiveUpload } from "./receive-upload";
import { resetAttachmentStorageForTests } from "./storage";

/** A DATA_DIR of the test file's own and `extraEnv` (read in beforeAll), undone afterwards. */
export function withStorageEnv(extraEnv: Record<string, string> | (() => Record<string, string>) = {}): {
  dir: () => string;
} {
  let dir = "";
  const previous: Record<string, string | undefined> = {};
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-attachments-"));
    const settings = typeof extraEnv === "function" ? extraEnv() : extraEnv;
    for (const [name, value] of Object.entries({ DATA_DIR: dir, ...settings })) {
      previous[name] = process.env[name];
      process.env[name] = value;
    }
    resetEnvForTests();
    resetAttachmentStorageForTests();
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnvForTests();
    resetAttachmentStorageForTests();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir: () => dir };
}

/** Creates an attachment as `credential` (an API key id) and uploads `bytes` through the use cases. */
export async function uploadAttachment(
  workspaceId: string,
  credential: string,
  bytes: Buffer,
  contentType: string | null = "application/pdf",
) {
  const { uploadUrl } = await createAttachment({ workspaceId, credential, body: undefined });
  return uploadTo(uploadUrl, bytes, contentType);
}

export async function uploadTo(uploadUrl: string, bytes: Buffer, contentType: string | null = null) {
  const url = new URL(uploadUrl);
  const { attachment } = await receiveUpload({
    attachmentId: url.pathname.split("/").pop()!,
    query: url.searchParams,
    contentType,
    contentLength: String(bytes.length),
    body: new Response(new Uint8Array(bytes)).body,
  });
  return attachment;
}
