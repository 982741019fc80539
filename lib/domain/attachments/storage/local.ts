import "server-only";
import fs from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { AppError } from "@/lib/foundation/errors";
import { randomBase62 } from "@/lib/foundation/ids";
import { uploadQuery } from "../upload-signature";
import type { AttachmentStorage, StagedUpload } from "./types";

/** Bytes under `{dataDir}/attachments/`, PUT to this service's own signed URL (upload-signature.ts). */
export function createLocalStorage(options: { dataDir: string; appUrl: string }): AttachmentStorage {
  const root = path.resolve(options.dataDir);
  const fileOf = (key: string) => {
    const file = path.resolve(root, key);
    if (!file.startsWith(root + path.sep) || !key.startsWith("attachments/"))
      throw new Error(`Not an attachment key: ${key}`);
    return file;
  };
  return {
    driver: "local",
    async uploadUrl({ attachmentId, expiresAt, credential }) {
      const query = uploadQuery({ attachmentId, expires: Math.floor(expiresAt.getTime() / 1000), credential });
      return `${options.appUrl}/api/uploads/${attachmentId}?${query}`;
    },
    receive: (key, body, maxBytes) => stage(fileOf(key), body, maxBytes),
    async stat(key) {
      const stats = await fs.promises.stat(fileOf(key)).catch(ifMissing(null));
      return stats ? { size: stats.size, contentType: null, modifiedAt: stats.mtime } : null;
    },
    async read(key) {
      return fs.promises.readFile(fileOf(key)).catch(ifMissing(null));
    },
    async write(key, bytes) {
      const file = fileOf(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed, so a reader never sees half the bytes.
      const temporary = `${file}.${randomBase62(8)}.part`;
      await fs.promises.writeFile(temporary, bytes, { flag: "wx" });
      await fs.promises.rename(temporary, file);
    },
    async delete(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
  };
}

/** Past `maxBytes` the stream is torn down and the partial file removed; `commit` renames over the old bytes atomically. */
async function stage(file: string, body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<StagedUpload> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBase62(8)}.part`;
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(tooLarge(maxBytes));
      done(null, chunk);
    },
  });
  const source = body ? Readable.fromWeb(body as WebReadableStream<Uint8Array>) : Readable.from([]);
  try {
    await pipeline(source, counter, fs.createWriteStream(temporary, { flags: "wx" }));
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
  return {
    size,
    commit: () => fs.promises.rename(temporary, file),
    discard: () => fs.promises.rm(temporary, { force: true }),
  };
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    `An uploaded attachment may be at most ${Math.round(maxBytes / 1024 / 1024)} MB; nothing was stored.`,
  );
}

function ifMissing<T>(fallback: T) {
  return (error: NodeJS.ErrnoException): T => {
    if (error.code === "ENOENT") return fallback;
    throw error;
  };
}
