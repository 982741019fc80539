import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { expect } from "vitest";
import { getDb } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { basicAuthHeader, createApiKey } from "@/lib/domain/api-keys/create-api-key";
import type { ApiScope } from "@/lib/domain/api-keys/scopes.shared";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { callRoute, type CallOptions } from "./http";

/** Tests of the management endpoints (docs/api.md#management): scoped keys, the audit trail, a failing audit write. */

/** The Authorization header of a new key of the workspace with exactly these scopes. */
export async function scopedAuthorization(
  workspaceId: string,
  scopes: ApiScope[],
  name = `only ${scopes.join(" ")}`,
): Promise<string> {
  const key = await createApiKey({ workspaceId, name, actor: AUDIT_SYSTEM_ACTOR, scopes });
  return basicAuthHeader(key.id, key.password);
}

/** The workspace's audit entries of these actions, oldest first. */
export async function auditTrail(workspaceId: string, actions: string[]) {
  const db = await getDb();
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.workspaceId, workspaceId), inArray(auditEvents.action, actions)))
    .orderBy(asc(auditEvents.createdAt), asc(auditEvents.id));
}

/**
 * Makes every audit write of the workspace fail (a trigger raising an exception) while `run` runs: a
 * change whose entry is written in its own transaction must then be undone with it. Only this
 * workspace's rows are refused, so tests running beside it on the same database are untouched.
 */
export async function withFailingAuditWrites<T>(workspaceId: string, run: () => Promise<T>): Promise<T> {
  const db = await getDb();
  const name = `fail_audit_${workspaceId.replace(/\W/g, "_")}`.toLowerCase();
  await db.execute(
    sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.workspace_id = '${workspaceId.replace(/'/g, "")}' THEN RAISE EXCEPTION 'audit write refused by the test'; END IF; RETURN NEW; END $$`),
  );
  await db.execute(
    sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION ${name}()`),
  );
  try {
    return await run();
  } finally {
    await db.execute(sql.raw(`DROP TRIGGER ${name} ON audit_events`));
    await db.execute(sql.raw(`DROP FUNCTION ${name}()`));
  }
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
export async function expectRefusal(
  workspaceId: string,
  handler: unknown,
  path: string,
  options: CallOptions,
  expected: { status: number; param?: string; code?: string },
) {
  const before = (await apiAuditEntries(workspaceId)).length;
  const answer = await callRoute(handler, path, options);
  const label = `${options.method ?? "POST"} ${path} ${JSON.stringify(options.body ?? null)}`;
  expect([answer.status, answer.json?.error?.param], label).toEqual([expected.status, expected.param]);
  if (expected.code) expect(answer.json.error.code, label).toBe(expected.code);
  expect((await apiAuditEntries(workspaceId)).length, `${label}: no audit entry for a refused change`).toBe(before);
  return answer;
}
