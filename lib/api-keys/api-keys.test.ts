import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { authenticateApiKey } from "./authenticate-api-key";
import { basicAuthHeader, createApiKey } from "./create-api-key";
import { listApiKeys } from "./list-api-keys";
import { revokeApiKeyOrThrow } from "./revoke-api-key";

describe("API keys in the dashboard", () => {
  it("lists keys newest first with hint and last use, never the secret or its hash", async () => {
    const ws = await createTestWorkspace();
    const second = await createApiKey({ workspaceId: ws.workspace.id, name: "  CI deploys " });
    await authenticateApiKey(basicAuthHeader(ws.key.id, ws.key.password));
    const keys = await listApiKeys(ws.workspace.id);
    expect(keys.map((key) => key.id).sort()).toEqual([second.id, ws.key.id].sort());
    // Newest first; equal timestamps fall back to the id, so the order is stable.
    const [a, b] = keys;
    expect(a.createdAt > b.createdAt || (a.createdAt.getTime() === b.createdAt.getTime() && a.id > b.id)).toBe(true);
    const byId = new Map(keys.map((key) => [key.id, key]));
    expect(byId.get(second.id)).toMatchObject({ name: "CI deploys", secretHint: second.password.slice(0, 4), lastUsedAt: null, revokedAt: null });
    expect(byId.get(ws.key.id)!.lastUsedAt).toBeInstanceOf(Date);
    expect(Object.keys(keys[0]).sort()).toEqual(["createdAt", "id", "lastUsedAt", "name", "revokedAt", "secretHint"]);
  });

  it("a revoked key is refused from the next request on; revoking again keeps the first time", async () => {
    const ws = await createTestWorkspace();
    const header = basicAuthHeader(ws.key.id, ws.key.password);
    await expect(authenticateApiKey(header)).resolves.toMatchObject({ workspaceId: ws.workspace.id });
    const revoked = await revokeApiKeyOrThrow(ws.workspace.id, ws.key.id);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    await expect(authenticateApiKey(header)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const again = await revokeApiKeyOrThrow(ws.workspace.id, ws.key.id);
    expect(again.revokedAt).toEqual(revoked.revokedAt);
    expect((await listApiKeys(ws.workspace.id))[0].revokedAt).toEqual(revoked.revokedAt);
  });

  it("another workspace's key id is not found, and the key keeps working", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    await expect(revokeApiKeyOrThrow(other.workspace.id, ws.key.id)).rejects.toMatchObject({ code: "NOT_FOUND", param: "id" });
    await expect(revokeApiKeyOrThrow(other.workspace.id, "key_0000000000000000")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(authenticateApiKey(basicAuthHeader(ws.key.id, ws.key.password))).resolves.toMatchObject({ apiKeyId: ws.key.id });
    expect((await listApiKeys(other.workspace.id)).map((key) => key.id)).toEqual([other.key.id]);
  });
});
