import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { getDb } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { basicAuthHeader, createApiKey } from "@/lib/api-keys/create-api-key";
import type { ApiScope } from "@/lib/api-keys/scopes.shared";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/audit/actor";
import { callRoute, type CallOptions } from "./http";

/** The Authorization header of a new key of the workspace with these scopes. */
export async function scopedAuthorization(workspaceId: string, scopes: ApiScope[]): Promise<string> {
  const key = await createApiKey({ workspaceId, name: `only ${scopes.join(" ")}`, actor: AUDIT_SYSTEM_ACTOR, scopes });
  return basicAuthHeader(key.id, key.password);
}

/** The audit entries the workspace's API keys wrote, oldest first (the fixture's own entries are the system's). */
export async function apiAuditEntries(workspaceId: string) {
  return (await getDb())
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.workspaceId, workspaceId), eq(auditEvents.actorType, "API_KEY")))
    .orderBy(auditEvents.createdAt, auditEvents.id);
}

/**
 * A management call that must be refused: the envelope names `param` with the given status, and the
 * workspace's audit log gains no entry (a refused change writes nothing).
 */
export async function expectRefusal(workspaceId: string, handler: unknown, path: string, options: CallOptions, expected: { status: number; param?: string; code?: string }) {
  const before = (await apiAuditEntries(workspaceId)).length;
  const answer = await callRoute(handler, path, options);
  const label = `${options.method ?? "POST"} ${path} ${JSON.stringify(options.body ?? null)}`;
  expect([answer.status, answer.json?.error?.param], label).toEqual([expected.status, expected.param]);
  if (expected.code) expect(answer.json.error.code, label).toBe(expected.code);
  expect((await apiAuditEntries(workspaceId)).length, `${label}: no audit entry for a refused change`).toBe(before);
  return answer;
}
