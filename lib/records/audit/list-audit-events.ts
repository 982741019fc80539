import "server-only";
import { eq, gt, gte, lt, lte, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { auditEvents, type AuditActorType } from "@/db/schema";
import { invalidParameter } from "@/lib/foundation/errors";
import { keysetPage } from "@/db/keyset";
import { parseCursorPage, queryParam, type CursorPage } from "@/lib/foundation/pagination";

export const AUDIT_PAGE_SIZE = 100;
export const AUDIT_ACTOR_TYPES: readonly AuditActorType[] = ["USER", "API_KEY", "SYSTEM"];

export type AuditEventRow = typeof auditEvents.$inferSelect;

export interface AuditEventFilters {
  actorType?: AuditActorType;
  actorId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
}

export type AuditListQuery = CursorPage & { filters: AuditEventFilters };

const TOKEN = /^[A-Za-z0-9_.:@-]{1,200}$/;

/** GET /v1/audit_events' query and the dashboard's filters: limit ≤ 100, keyset cursors, createdAt range. */
export function parseAuditListQuery(params: URLSearchParams): AuditListQuery {
  const page = parseCursorPage(params, { maxLimit: AUDIT_PAGE_SIZE });
  const filters: AuditEventFilters = {};
  for (const name of ["actorId", "action", "targetType", "targetId"] as const) {
    const value = queryParam(params, name);
    if (value === null || value === "") continue;
    if (!TOKEN.test(value)) throw invalidParameter(name, `${name} must be 1–200 letters, digits or _ . : @ -.`);
    filters[name] = value;
  }
  const actorType = queryParam(params, "actorType");
  if (actorType) {
    if (!AUDIT_ACTOR_TYPES.includes(actorType as AuditActorType))
      throw invalidParameter("actorType", `actorType must be one of ${AUDIT_ACTOR_TYPES.join(", ")}.`);
    filters.actorType = actorType as AuditActorType;
  }
  return { ...page, filters };
}

/** The workspace's audit log, newest first, keyset pages on (created_at, id) like every list. */
export async function listAuditEvents(workspaceId: string, query: AuditListQuery) {
  const a = auditEvents;
  const { filters: f, createdAt } = query;
  const filters: SQL[] = [];
  if (f.actorType) filters.push(eq(a.actorType, f.actorType));
  if (f.actorId) filters.push(eq(a.actorId, f.actorId));
  if (f.action) filters.push(eq(a.action, f.action));
  if (f.targetType) filters.push(eq(a.targetType, f.targetType));
  if (f.targetId) filters.push(eq(a.targetId, f.targetId));
  if (createdAt.gt) filters.push(gt(a.createdAt, createdAt.gt));
  if (createdAt.gte) filters.push(gte(a.createdAt, createdAt.gte));
  if (createdAt.lt) filters.push(lt(a.createdAt, createdAt.lt));
  if (createdAt.lte) filters.push(lte(a.createdAt, createdAt.lte));
  const keyset = {
    db: await getDb(),
    table: a,
    createdAt: a.createdAt,
    id: a.id,
    scope: eq(a.workspaceId, workspaceId),
    filters,
  };
  return keysetPage<AuditEventRow>(keyset, query);
}

export function serializeAuditEvent(row: AuditEventRow) {
  return {
    id: row.id,
    type: "AuditEvent" as const,
    actor: { type: row.actorType, id: row.actorId, label: row.actorLabel },
    action: row.action,
    target: { type: row.targetType, id: row.targetId },
    before: row.before ?? null,
    after: row.after ?? null,
    ip: row.ip,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
  };
}
