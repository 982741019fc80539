import "server-only";
import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { idempotencyKeys } from "@/db/schema/index";

const WINDOW = sql`interval '24 hours'`;

/**
 * metaId idempotency (docs/api.md#decided-idempotency). Call in the creating transaction before any write: the
 * earlier resource's id to replay, or null when this request owns the key.
 */
export async function claimIdempotencyKey(
  db: Executor,
  key: { workspaceId: string; scope: string; metaId: string; requestHash: string; resourceId: string },
): Promise<string | null> {
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values({ ...key, createdAt: new Date() })
    .onConflictDoUpdate({
      target: [idempotencyKeys.workspaceId, idempotencyKeys.scope, idempotencyKeys.metaId, idempotencyKeys.requestHash],
      set: { resourceId: key.resourceId, createdAt: new Date() },
      // An expired key is taken over by the new request.
      setWhere: sql`${idempotencyKeys.createdAt} < now() - ${WINDOW}`,
    })
    .returning({ resourceId: idempotencyKeys.resourceId });
  if (claimed) return null;
  const [existing] = await db
    .select({ resourceId: idempotencyKeys.resourceId })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.workspaceId, key.workspaceId),
        eq(idempotencyKeys.scope, key.scope),
        eq(idempotencyKeys.metaId, key.metaId),
        eq(idempotencyKeys.requestHash, key.requestHash),
      ),
    );
  return existing.resourceId;
}

/** SHA-256 of the body as canonical JSON (keys sorted), so key order does not make a new request. */
export function hashRequestBody(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body)).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
