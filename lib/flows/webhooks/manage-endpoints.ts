import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { AppError, notFound } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { keysetPage } from "@/db/keyset";
import { parseKeysetPageQuery, type KeysetPageQuery } from "@/lib/foundation/pagination";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { createEndpointSchema, endpointIdPattern, updateEndpointSchema } from "./schemas";
import { newSigningSecret, PREVIOUS_SECRET_GRACE_MS, sealSecret } from "./signing";
import { checkTarget } from "./target-guard";

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/** An audit actor, or only an id (`key_…`, `cli`) kept as created/updated by. */
export type ActorId = string | AuditActor;

function auditActorOf(actor: ActorId): AuditActor {
  if (typeof actor !== "string") return actor;
  return actor.startsWith("key_")
    ? { type: "API_KEY", id: actor, label: null }
    : { type: "SYSTEM", id: null, label: actor === "cli" ? "CLI" : actor };
}

function actorIdOf(actor: ActorId): string {
  return typeof actor === "string" ? actor : (actor.id ?? actor.label ?? "system");
}

/** The endpoint's audited fields (docs/audit.md#actions): never the secret. */
const audited = (row: WebhookEndpointRow) => ({
  url: row.url,
  description: row.description,
  eventTypes: row.eventTypes,
  enabled: row.enabled,
  disabledReason: row.disabledReason,
});

async function auditEndpoint(
  tx: Tx,
  actor: ActorId,
  action: string,
  row: WebhookEndpointRow,
  before: WebhookEndpointRow | null,
  after: WebhookEndpointRow | null,
) {
  await recordAudit(tx, {
    workspaceId: row.workspaceId,
    actor: auditActorOf(actor),
    action,
    target: { type: "webhook_endpoint", id: row.id },
    before: before && audited(before),
    after: after && audited(after),
  });
}

/** At most this many endpoints per workspace: each event fans out to all of them. */
export const MAX_ENDPOINTS_PER_WORKSPACE = 50;

export async function getEndpointOrThrow(workspaceId: string, id: string): Promise<WebhookEndpointRow> {
  if (!endpointIdPattern.test(id)) throw notFound("Webhook endpoint", "id");
  const db = await getDb();
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.id, id)));
  if (!row) throw notFound("Webhook endpoint", "id");
  return row;
}

/** Creates an endpoint; the answer carries its secret, which is never shown again. */
export async function createEndpoint(workspaceId: string, body: unknown, actor: ActorId) {
  const parsed = createEndpointSchema.safeParse(body ?? {});
  if (!parsed.success) throw zodToAppError(parsed.error);
  const input = parsed.data;
  await checkTarget(input.url);
  const db = await getDb();
  const existing = await db.$count(webhookEndpoints, eq(webhookEndpoints.workspaceId, workspaceId));
  if (existing >= MAX_ENDPOINTS_PER_WORKSPACE) {
    throw new AppError(
      "CONFLICT",
      `A workspace has at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook endpoints; delete one first.`,
      { param: "url" },
    );
  }
  const secret = newSigningSecret();
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(webhookEndpoints)
      .values({
        id: newId("webhookEndpoint"),
        workspaceId,
        url: input.url,
        description: input.description ?? "",
        eventTypes: input.eventTypes ?? null,
        enabled: input.enabled ?? true,
        secretEncrypted: sealSecret(secret),
        createdBy: actorIdOf(actor),
        updatedBy: actorIdOf(actor),
      })
      .returning();
    await auditEndpoint(tx, actor, "webhook_endpoint.create", inserted, null, inserted);
    return inserted;
  });
  return { endpoint: row, secret };
}

/** PATCH: the fields given; re-enabling clears the service's reason and its failure counters. */
export async function updateEndpoint(
  workspaceId: string,
  id: string,
  body: unknown,
  actor: ActorId,
): Promise<WebhookEndpointRow> {
  const before = await getEndpointOrThrow(workspaceId, id);
  const parsed = updateEndpointSchema.safeParse(body ?? {});
  if (!parsed.success) throw zodToAppError(parsed.error);
  const input = parsed.data;
  if (input.url !== undefined) await checkTarget(input.url);
  const changes: Partial<WebhookEndpointRow> = { updatedAt: new Date(), updatedBy: actorIdOf(actor) };
  if (input.url !== undefined) changes.url = input.url;
  if (input.description !== undefined) changes.description = input.description;
  if (input.eventTypes !== undefined) changes.eventTypes = input.eventTypes;
  if (input.enabled !== undefined) {
    changes.enabled = input.enabled;
    if (input.enabled) Object.assign(changes, { disabledReason: null, failingSince: null, consecutiveFailures: 0 });
  }
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookEndpoints)
      .set(changes)
      .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.id, id)))
      .returning();
    if (!row) throw notFound("Webhook endpoint", "id");
    // An update that changes nothing writes no entry (docs/audit.md).
    if (JSON.stringify(audited(before)) !== JSON.stringify(audited(row)))
      await auditEndpoint(tx, actor, "webhook_endpoint.update", row, before, row);
    return row;
  });
}

/** Deletes an endpoint with its deliveries and attempts (cascade); the feed is unaffected. */
export async function deleteEndpoint(workspaceId: string, id: string, actor: ActorId = "system"): Promise<void> {
  const before = await getEndpointOrThrow(workspaceId, id);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.id, id)));
    await auditEndpoint(tx, actor, "webhook_endpoint.delete", before, before, null);
  });
}

/** The previous secret keeps signing for 24 hours, so receivers switch without a gap. */
export async function rotateEndpointSecret(workspaceId: string, id: string, actor: ActorId, now = new Date()) {
  const current = await getEndpointOrThrow(workspaceId, id);
  const secret = newSigningSecret();
  const db = await getDb();
  const row = await db.transaction(async (tx) => {
    const [rotated] = await tx
      .update(webhookEndpoints)
      .set({
        secretEncrypted: sealSecret(secret),
        previousSecretEncrypted: current.secretEncrypted,
        previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS),
        updatedAt: now,
        updatedBy: actorIdOf(actor),
      })
      .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.id, id)))
      .returning();
    if (!rotated) throw notFound("Webhook endpoint", "id");
    // Only the secret changed, which the log never holds: the entry says when and by whom.
    await recordAudit(tx, {
      workspaceId,
      actor: auditActorOf(actor),
      action: "webhook_endpoint.rotate_secret",
      target: { type: "webhook_endpoint", id },
      after: { previousSecretExpiresAt: rotated.previousSecretExpiresAt },
    });
    return rotated;
  });
  return { endpoint: row, secret };
}

export function parseEndpointListQuery(params: URLSearchParams): KeysetPageQuery {
  return parseKeysetPageQuery(params, { maxLimit: 100 });
}

export async function listEndpoints(workspaceId: string, page: KeysetPageQuery) {
  const t = webhookEndpoints;
  const query = {
    db: await getDb(),
    table: t,
    createdAt: t.createdAt,
    id: t.id,
    scope: eq(t.workspaceId, workspaceId),
    filters: [],
  };
  return keysetPage<WebhookEndpointRow>(query, page);
}
