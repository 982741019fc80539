import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys, attachments } from "@/db/schema";
import { createAttachment } from "@/lib/domain/attachments/create-attachment";
import { withStorageEnv } from "@/lib/domain/attachments/testing";
import { uploadQuery } from "@/lib/domain/attachments/upload-signature";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { sendMessage } from "@/lib/sending/send-message";
import { OPTIONS, PUT } from "./[id]/route";

const storage = withStorageEnv();
const MB = 1024 * 1024;

async function put(uploadUrl: string, body: BodyInit | null, headers: Record<string, string> = {}) {
  const url = new URL(uploadUrl);
  const init: RequestInit & { duplex?: "half" } = { method: "PUT", body, headers, duplex: "half" };
  const response = await PUT(new Request(url, init), {
    params: Promise.resolve({ id: url.pathname.split("/").pop()! }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

async function newAttachment(body?: unknown) {
  const ws = await createTestWorkspace();
  const { attachment, uploadUrl } = await createAttachment({
    workspaceId: ws.workspace.id,
    credential: ws.key.id,
    body,
  });
  const file = () => path.join(storage.dir(), attachment.storageKey);
  const row = async () =>
    (await (await getDb()).select().from(attachments).where(eq(attachments.id, attachment.id)))[0];
  return { ws, attachment, uploadUrl, file, row };
}

/** A body generated as it is read, counting what was pulled: nothing is prepared in memory. */
function generatedBody(totalBytes: number, chunkBytes = 64 * 1024) {
  const chunk = new Uint8Array(chunkBytes).fill(97);
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= totalBytes) return controller.close();
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, counter };
}

describe("PUT /api/uploads/:id", () => {
  it("stores the bytes with only the signed URL, records size and the PUT's content type, status UPLOADED", async () => {
    const { uploadUrl, file, row, attachment } = await newAttachment();
    const bytes = Buffer.from("%PDF-1.7 hello");
    const res = await put(uploadUrl.replace("localhost:3000", "127.0.0.1:3000"), bytes, {
      "content-type": "application/pdf",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.json.data).toMatchObject({
      id: attachment.id,
      type: "Attachment",
      status: "UPLOADED",
      size: bytes.length,
      contentType: "application/pdf",
    });
    expect(res.json.data.uploadedAt).not.toBeNull();
    expect(res.json.data.uploadUrl).toBe(uploadUrl);
    expect(fs.readFileSync(file())).toEqual(bytes);
    expect(await row()).toMatchObject({ status: "UPLOADED", size: bytes.length, contentType: "application/pdf" });
    expect(fs.readdirSync(path.dirname(file()))).toEqual([attachment.id]); // no temporary file left
  });

  it("keeps a declared content type; a second PUT replaces the bytes until a live send uses the attachment", async () => {
    const { ws, uploadUrl, file, row, attachment } = await newAttachment({ contentType: "text/csv", name: "a.csv" });
    expect((await put(uploadUrl, "a,b\n1,2\n", { "content-type": "text/plain" })).status).toBe(200);
    expect(await row()).toMatchObject({ contentType: "text/csv", size: 8 });
    expect((await put(uploadUrl, "a,b\n3,4\n5,6\n")).status).toBe(200);
    expect(fs.readFileSync(file(), "utf8")).toBe("a,b\n3,4\n5,6\n");
    expect((await row()).size).toBe(12);

    const body = {
      from: "hello@example.com",
      to: "a@example.org",
      subject: "CSV",
      bodyHtml: "<p>See attached</p>",
      attachments: [{ name: "a.csv", contentType: "text/csv", attachmentId: attachment.id }],
    };
    await sendMessage({ workspaceId: ws.workspace.id, sandbox: true, body });
    expect((await put(uploadUrl, "sandbox sends do not freeze it")).status).toBe(200);
    const { message } = await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body });
    const refused = await put(uploadUrl, "too late");
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({ code: "CONFLICT" });
    expect(refused.json.error.message).toContain(message.id);
    expect(fs.readFileSync(file(), "utf8")).toBe("sandbox sends do not freeze it");
  });

  it("refuses a tampered URL with 401 (signature, expiry, credential or id changed) and stores nothing", async () => {
    const { uploadUrl, file, row } = await newAttachment();
    const other = await newAttachment();
    const url = new URL(uploadUrl);
    const tampered = (name: string, value: string) => {
      const copy = new URL(url);
      copy.searchParams.set(name, value);
      return copy.toString();
    };
    const signature = url.searchParams.get("signature")!;
    const flipped = (signature[0] === "0" ? "1" : "0") + signature.slice(1);
    const variants = [
      tampered("signature", flipped),
      tampered("signature", ""),
      tampered("expires", String(Number(url.searchParams.get("expires")) + 3600)),
      tampered("credential", other.ws.key.id),
      uploadUrl.replace(url.pathname, new URL(other.uploadUrl).pathname),
      `${url.origin}${url.pathname}`,
    ];
    for (const variant of variants) {
      const res = await put(variant, "evil");
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe("UNAUTHORIZED");
      expect(res.json.error.message).toMatch(/signature does not match/);
      expect(res.headers.get("www-authenticate")).toBe('Signature realm="upload"');
    }
    expect(fs.existsSync(file())).toBe(false);
    expect((await row()).status).toBe("PENDING");
    expect((await other.row()).status).toBe("PENDING");
  });

  it("refuses an expired URL and one whose API key was revoked with 401; another workspace's credential is a 404", async () => {
    const { ws, attachment, file } = await newAttachment();
    const base = `http://localhost:3000/api/uploads/${attachment.id}`;
    const expired = `${base}?${uploadQuery({ attachmentId: attachment.id, expires: Math.floor(Date.now() / 1000) - 1, credential: ws.key.id })}`;
    const res = await put(expired, "late");
    expect(res.status).toBe(401);
    expect(res.json.error.message).toMatch(/expired at .*create a new attachment/);

    const stranger = await createTestWorkspace();
    const foreign = `${base}?${uploadQuery({ attachmentId: attachment.id, expires: Math.floor(Date.now() / 1000) + 60, credential: stranger.workspace.id })}`;
    expect((await put(foreign, "x")).status).toBe(404);

    const { uploadUrl } = await createAttachment({
      workspaceId: ws.workspace.id,
      credential: ws.key.id,
      body: undefined,
    });
    await (
      await getDb()
    )
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, ws.key.id), eq(apiKeys.workspaceId, ws.workspace.id)));
    const revoked = await put(uploadUrl, "x");
    expect(revoked.status).toBe(401);
    expect(revoked.json.error.message).toMatch(/revoked/);
    expect(fs.existsSync(file())).toBe(false);
  });

  it("refuses more than 40 MB while streaming: stops reading, keeps nothing, leaves earlier bytes", async () => {
    const { uploadUrl, file, row } = await newAttachment();
    expect((await put(uploadUrl, "first version")).status).toBe(200);
    const { stream, counter } = generatedBody(200 * MB);
    const res = await put(uploadUrl, stream, { "content-type": "application/octet-stream" });
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe("PAYLOAD_TOO_LARGE");
    // Read up to the limit plus what was already in flight, never the 200 MB.
    expect(counter.pulled).toBeGreaterThan(40 * MB);
    expect(counter.pulled).toBeLessThan(42 * MB);
    expect(fs.readFileSync(file(), "utf8")).toBe("first version");
    expect(fs.readdirSync(path.dirname(file())).filter((name) => name.endsWith(".part"))).toEqual([]);
    expect(await row()).toMatchObject({ status: "UPLOADED", size: 13 });
  });

  it("accepts exactly 40 MB; refuses a declared Content-Length over 40 MB before reading anything", async () => {
    const { uploadUrl, row } = await newAttachment();
    const exact = generatedBody(40 * MB);
    expect((await put(uploadUrl, exact.stream)).status).toBe(200);
    expect((await row()).size).toBe(40 * MB);

    const second = await newAttachment();
    const { stream, counter } = generatedBody(41 * MB);
    const res = await put(second.uploadUrl, stream, { "content-length": String(41 * MB) });
    expect(res.status).toBe(413);
    expect(counter.pulled).toBeLessThanOrEqual(64 * 1024 * 2);
    expect((await second.row()).status).toBe("PENDING");
  });

  it("answers the CORS preflight", async () => {
    const res = await OPTIONS();
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-methods")).toBe("PUT");
  });
});
