import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys, auditEvents } from "@/db/schema";
import { AUDIT_SYSTEM_ACTOR, userActor } from "@/lib/records/audit/actor";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { authenticateApiKey } from "./authenticate-api-key";
import { basicAuthHeader, createApiKey } from "./create-api-key";
import { listApiKeys } from "./list-api-keys";
import { revokeApiKeyOrThrow } from "./revoke-api-key";

const actor = userActor(
  { id: "user_0000000000000001", email: "ada@example.com" },
  { ip: "203.0.113.9", userAgent: "Firefox" },
);

async function auditOf(workspaceId: string) {
  return (await getDb())
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.workspaceId, workspaceId))
    .orderBy(auditEvents.createdAt, auditEvents.id);
}

describe("API keys in the dashboard", () => {
  it("lists keys newest first with hint, scopes, restrictions and last use, never the secret or its hash", async () => {
    const ws = await createTestWorkspace();
    const second = await createApiKey({
      workspaceId: ws.workspace.id,
      name: "  CI deploys ",
      actor,
      scopes: ["emails:send"],
      allowedIps: ["10.0.0.0/8"],
    });
    await authenticateApiKey(basicAuthHeader(ws.key.id, ws.key.password));
    const keys = await listApiKeys(ws.workspace.id);
    expect(keys.map((key) => key.id).sort()).toEqual([second.id, ws.key.id].sort());
    // Newest first; equal timestamps fall back to the id, so the order is stable.
    const [a, b] = keys;
    expect(a.createdAt > b.createdAt || (a.createdAt.getTime() === b.createdAt.getTime() && a.id > b.id)).toBe(true);
    const byId = new Map(keys.map((key) => [key.id, key]));
    expect(byId.get(second.id)).toMatchObject({
      name: "CI deploys",
      secretHint: second.password.slice(0, 4),
      scopes: ["emails:send"],
      allowedIps: ["10.0.0.0/8"],
      allowedSenders: [],
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(byId.get(ws.key.id)!.lastUsedAt).toBeInstanceOf(Date);
    expect(Object.keys(keys[0]).sort()).toEqual(
      [
        "allowedIps",
        "allowedSenders",
        "createdAt",
        "expiresAt",
        "id",
        "lastUsedAt",
        "name",
        "revokedAt",
        "scopes",
        "secretHint",
      ].sort(),
    );
  });

  it("a revoked key is refused from the next request on; revoking again keeps the first time", async () => {
    const ws = await createTestWorkspace();
    const header = basicAuthHeader(ws.key.id, ws.key.password);
    await expect(authenticateApiKey(header)).resolves.toMatchObject({ workspaceId: ws.workspace.id, scopes: ["full"] });
    const revoked = await revokeApiKeyOrThrow(ws.workspace.id, ws.key.id, actor);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    await expect(authenticateApiKey(header)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const again = await revokeApiKeyOrThrow(ws.workspace.id, ws.key.id, actor);
    expect(again.revokedAt).toEqual(revoked.revokedAt);
    expect((await listApiKeys(ws.workspace.id))[0].revokedAt).toEqual(revoked.revokedAt);
  });

  it("another workspace's key id is not found, and the key keeps working", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    await expect(revokeApiKeyOrThrow(other.workspace.id, ws.key.id, actor)).rejects.toMatchObject({
      code: "NOT_FOUND",
      param: "id",
    });
    await expect(revokeApiKeyOrThrow(other.workspace.id, "key_0000000000000000", actor)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(authenticateApiKey(basicAuthHeader(ws.key.id, ws.key.password))).resolves.toMatchObject({
      apiKeyId: ws.key.id,
    });
    expect((await listApiKeys(other.workspace.id)).map((key) => key.id)).toEqual([other.key.id]);
  });
});

describe("API keys in the audit log", () => {
  it("create and revoke are audited with actor, IP, user agent and the grant, never the secret; a second revoke adds nothing", async () => {
    const ws = await createTestWorkspace();
    const key = await createApiKey({
      workspaceId: ws.workspace.id,
      name: "web",
      actor,
      scopes: ["emails:send"],
      allowedSenders: ["a@example.com"],
    });
    await revokeApiKeyOrThrow(ws.workspace.id, key.id, actor);
    await revokeApiKeyOrThrow(ws.workspace.id, key.id, actor);
    const entries = (await auditOf(ws.workspace.id)).filter((entry) => entry.targetType === "api_key");
    // The fixture's own key was created by the system.
    expect(entries.map((entry) => [entry.action, entry.actorType, entry.targetId])).toEqual([
      ["api_key.create", "SYSTEM", ws.key.id],
      ["api_key.create", "USER", key.id],
      ["api_key.revoke", "USER", key.id],
    ]);
    const [, created, revoked] = entries;
    expect(created).toMatchObject({
      actorId: actor.id,
      actorLabel: "ada@example.com",
      ip: "203.0.113.9",
      userAgent: "Firefox",
      targetType: "api_key",
      before: null,
      after: {
        name: "web",
        scopes: ["emails:send"],
        allowedSenders: ["a@example.com"],
        allowedIps: [],
        expiresAt: null,
      },
    });
    expect(JSON.stringify(entries)).not.toContain(key.password);
    expect(JSON.stringify(entries)).not.toMatch(/secret|hash/i);
    expect(revoked.before).toEqual({ revokedAt: null });
    expect(revoked.after).toEqual({ revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it("a failed change leaves no entry: a refused grant, another workspace's key, a key id already taken", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const before = (await auditOf(ws.workspace.id)).length;
    await expect(
      createApiKey({ workspaceId: ws.workspace.id, name: "bad", actor, allowedIps: ["nope"] }),
    ).rejects.toMatchObject({ param: "allowedIps[0]" });
    await expect(revokeApiKeyOrThrow(ws.workspace.id, other.key.id, actor)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    // The insert fails inside the transaction (duplicate id): neither key nor entry is written.
    const fixed = { username: ws.key.id, password: "x".repeat(40) };
    await expect(createApiKey({ workspaceId: ws.workspace.id, name: "twin", actor, fixed })).rejects.toThrow();
    expect(await auditOf(ws.workspace.id)).toHaveLength(before);
    const [row] = await (await getDb()).select({ name: apiKeys.name }).from(apiKeys).where(eq(apiKeys.id, ws.key.id));
    expect(row.name).toBe("test key");
    expect((await auditOf(other.workspace.id)).every((entry) => entry.actorType === "SYSTEM")).toBe(true);
  });

  it("the system actor (seed, fixtures) is recorded without an id", async () => {
    const ws = await createTestWorkspace();
    const [entry] = await auditOf(ws.workspace.id);
    expect(entry).toMatchObject({
      actorType: AUDIT_SYSTEM_ACTOR.type,
      actorId: null,
      actorLabel: "Postwerk",
      ip: null,
    });
  });
});
