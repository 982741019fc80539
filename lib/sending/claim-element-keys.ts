import "server-only";
import { sql } from "drizzle-orm";
import type { Executor, Tx } from "@/db/client";
import { idempotencyKeys } from "@/db/schema/index";
import { wellFormedJson } from "@/db/well-formed-json";
import { hashRequestBody } from "@/lib/sending/idempotency";
import type { PreparedElement } from "./prepare-batch";

const WINDOW = sql`interval '24 hours'`;

interface ElementKey {
  metaId: string;
  requestHash: string;
}

export interface ElementIds {
  /** The message id at each position of the request: a new one, or the earlier one it replays. */
  ids: string[];
  create: PreparedElement[];
}

/**
 * metaId idempotency per batch element (docs/api.md#decided-idempotency), set-based. Keys are inserted in sorted
 * order, so two batches sharing keys wait instead of deadlocking. Call inside the creating transaction.
 */
export async function claimElementKeys(
  tx: Tx,
  scope: { workspaceId: string; scope: string },
  elements: PreparedElement[],
): Promise<ElementIds> {
  const owners = new Map<string, PreparedElement>();
  const keyAt = new Map<number, string>();
  for (const element of elements) {
    if (!element.metaId) continue;
    const key = keyString({ metaId: element.metaId, requestHash: hashRequestBody(element.body) });
    keyAt.set(element.index, key);
    if (!owners.has(key)) owners.set(key, element);
  }
  const claimed = await insertKeys(tx, scope, owners);
  const unclaimed = [...owners.keys()].filter((key) => !claimed.has(key));
  const earlier = await lookupElementKeys(tx, scope, unclaimed.map(parseKey));
  const ids: string[] = [];
  const create: PreparedElement[] = [];
  for (const element of elements) {
    const key = keyAt.get(element.index);
    const owner = key === undefined ? element : claimed.has(key) ? owners.get(key)! : null;
    if (owner === element) create.push(element);
    const id = owner ? owner.prepared.id : earlier.get(key!);
    // Unreachable: a key the insert did not claim is held by a committed row.
    if (!id) throw new Error(`Idempotency key of batch element ${element.index} is neither claimed nor held.`);
    ids.push(id);
  }
  return { ids, create };
}

/** The message ids an earlier request stored for these elements (a whole-batch replay). */
export async function earlierElementIds(
  db: Executor,
  scope: { workspaceId: string; scope: string },
  elements: PreparedElement[],
): Promise<string[]> {
  const keys = elements.map((element) => ({ metaId: element.metaId!, requestHash: hashRequestBody(element.body) }));
  const found = await lookupElementKeys(db, scope, keys);
  return keys.map((key) => {
    const id = found.get(keyString(key));
    if (!id) throw new Error(`Idempotency key of a replayed batch element is missing (metaId ${key.metaId}).`);
    return id;
  });
}

// Claimed rows are told by resource id, never by metaId read back: PGlite's TextDecoder drops a leading U+FEFF.
async function insertKeys(
  tx: Tx,
  scope: { workspaceId: string; scope: string },
  owners: Map<string, PreparedElement>,
): Promise<Set<string>> {
  if (owners.size === 0) return new Set();
  const now = new Date();
  const keyOfResource = new Map([...owners.entries()].map(([key, owner]) => [owner.prepared.id, key]));
  const rows = [...owners.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, owner]) => ({ ...scope, ...parseKey(key), resourceId: owner.prepared.id, createdAt: now }));
  const claimed = await tx
    .insert(idempotencyKeys)
    .values(rows)
    .onConflictDoUpdate({
      target: [idempotencyKeys.workspaceId, idempotencyKeys.scope, idempotencyKeys.metaId, idempotencyKeys.requestHash],
      // As the single send: a concurrent identical element waits; an expired key is taken over.
      set: { resourceId: sql`excluded.resource_id`, createdAt: now },
      setWhere: sql`${idempotencyKeys.createdAt} < now() - ${WINDOW}`,
    })
    .returning({ resourceId: idempotencyKeys.resourceId });
  return new Set(claimed.map((row) => keyOfResource.get(row.resourceId)!));
}

// PostgreSQL answers each key's position, so no metaId is read back (see insertKeys).
async function lookupElementKeys(
  db: Executor,
  scope: { workspaceId: string; scope: string },
  keys: ElementKey[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const result = (await db.execute(sql`
    select k.position::int as position, i.resource_id as "resourceId"
    from jsonb_array_elements(${wellFormedJson(keys)}::jsonb) with ordinality as k(key, position)
    join ${idempotencyKeys} i on i.workspace_id = ${scope.workspaceId} and i.scope = ${scope.scope}
      and i.meta_id = k.key->>'metaId' and i.request_hash = k.key->>'requestHash'`)) as unknown;
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    position: number;
    resourceId: string;
  }>;
  return new Map(rows.map((row) => [keyString(keys[Number(row.position) - 1]!), row.resourceId]));
}

const keyString = (key: ElementKey) => `${key.requestHash}:${key.metaId}`;

function parseKey(key: string): ElementKey {
  const split = key.indexOf(":");
  return { requestHash: key.slice(0, split), metaId: key.slice(split + 1) };
}
