import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { attachments } from "@/db/schema";
import { withStorageEnv } from "@/lib/domain/attachments/testing";
import { verifyUploadGrant } from "@/lib/domain/attachments/upload-signature";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi, callRoute } from "@/lib/testing/http";
import { POST } from "./handlers";

withStorageEnv();

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("POST /v1/attachments", () => {
  it("answers 201 with the Attachment: id, type, timestamps, a signed upload URL and its expiry (1 hour)", async () => {
    const ws = await createTestWorkspace();
    const before = Date.now();
    const res = await callRoute(POST, "/api/v1/attachments", { method: "POST", authorization: ws.authorization });
    const after = Date.now();
    expect(res.status).toBe(201);
    const data = res.json.data;
    expect(data).toMatchObject({
      type: "Attachment",
      status: "PENDING",
      name: null,
      contentType: null,
      size: null,
      uploadedAt: null,
    });
    expect(data.id).toMatch(/^attachment_[0-9A-Za-z]{16}$/);
    expect(data.createdAt).toMatch(ISO);
    expect(data.updatedAt).toMatch(ISO);
    // An hour after the request was handled (between before and after), in whole seconds rounded down.
    const expiresAt = Date.parse(data.expiresAt);
    expect(expiresAt).toBeGreaterThan(before + 3599_000);
    expect(expiresAt).toBeLessThanOrEqual(after + 3600_000);

    const url = new URL(data.uploadUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`http://localhost:3000/api/uploads/${data.id}`);
    expect(url.searchParams.get("expires")).toBe(String(expiresAt / 1000));
    expect(url.searchParams.get("credential")).toBe(ws.key.id);
    expect(url.searchParams.get("signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyUploadGrant(data.id, url.searchParams)).toMatchObject({
      attachmentId: data.id,
      credential: ws.key.id,
    });

    const [row] = await (await getDb()).select().from(attachments).where(eq(attachments.id, data.id));
    expect(row).toMatchObject({
      workspaceId: ws.workspace.id,
      status: "PENDING",
      storageKey: `attachments/${ws.workspace.id}/${data.id}`,
    });
  });

  it("keeps the declared name, content type and size; an empty body and an empty object are fine", async () => {
    const ws = await createTestWorkspace();
    const declared = await callRoute(POST, "/api/v1/attachments", {
      authorization: ws.authorization,
      body: { name: "invoice.pdf", contentType: "application/pdf", size: 1234 },
    });
    expect(declared.status).toBe(201);
    expect(declared.json.data).toMatchObject({ name: "invoice.pdf", contentType: "application/pdf", size: 1234 });
    const empty = await callRoute(POST, "/api/v1/attachments", { authorization: ws.authorization, body: {} });
    expect(empty.status).toBe(201);
    const nulls = await callRoute(POST, "/api/v1/attachments", {
      authorization: ws.authorization,
      body: { name: null },
    });
    expect(nulls.status).toBe(201);
  });

  const bad: Array<[string, unknown, number, string, string | undefined]> = [
    ["size over 40 MB", { size: 40 * 1024 * 1024 + 1 }, 413, "PAYLOAD_TOO_LARGE", "size"],
    ["size not a number", { size: "12" }, 400, "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", "size"],
    ["negative size", { size: -1 }, 400, "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", "size"],
    ["name of the wrong type", { name: 5 }, 400, "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", "name"],
    [
      "contentType not a MIME type",
      { contentType: "pdf" },
      400,
      "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      "contentType",
    ],
    ["body not an object", [1], 400, "INVALID_JSON", undefined],
  ];

  it.each(bad)("refuses %s and writes nothing", async (_name, body, status, code, param) => {
    const ws = await createTestWorkspace();
    const res = await callRoute(POST, "/api/v1/attachments", { authorization: ws.authorization, body });
    expect(res.status).toBe(status);
    expect(res.json.error).toMatchObject({ code });
    expect(res.json.error.param).toBe(param);
    const rows = await (await getDb()).select().from(attachments).where(eq(attachments.workspaceId, ws.workspace.id));
    expect(rows).toHaveLength(0);
  });

  it("answers 401 without credentials and 405 for other methods", async () => {
    const ws = await createTestWorkspace();
    for (const authorization of [null, "Basic nope", `Basic ${Buffer.from(`${ws.key.id}:wrong`).toString("base64")}`]) {
      const res = await callRoute(POST, "/api/v1/attachments", { method: "POST", authorization });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe("UNAUTHORIZED");
    }
    const get = await callApi("/api/v1/attachments", { authorization: ws.authorization });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const rows = await (await getDb()).select().from(attachments).where(eq(attachments.workspaceId, ws.workspace.id));
    expect(rows).toHaveLength(0);
  });
});
