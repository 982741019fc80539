import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { providerConnections, routingRules } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { invalidParameter } from "@/lib/foundation/errors";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { sealSecrets } from "./connection-secrets";
import { auditConnection, connectionValues, duplicateName, reservedName, valuesOf } from "./connection-writes";
import { getConnectionOrThrow, type ProviderConnection } from "./get-connection";
import { SECRET_FIELDS, updateConnectionSchema } from "./schemas";

/** How long the secrets before a rotation still verify incoming events: a provider's retries span a day. */
export const PREVIOUS_SECRETS_HONOURED_MS = 24 * 60 * 60 * 1000;

/**
 * Any field but the kind. New secrets take effect on the next hand-off (no restart); the old ones still verify events
 * for a day. A new name is carried into the workspace's rules in the same transaction.
 */
export async function updateConnection(
  workspaceId: string,
  id: string,
  body: unknown,
  actor: AuditActor,
): Promise<ProviderConnection> {
  const parsed = updateConnectionSchema.safeParse(body ?? {});
  if (!parsed.success) throw zodToAppError(parsed.error);
  const input = parsed.data;
  const current = await getConnectionOrThrow(workspaceId, id);
  if (input.kind !== undefined && input.kind !== current.kind)
    throw invalidParameter(
      "kind",
      `A connection's kind cannot change (it is ${current.kind}); create a new connection.`,
    );
  if (input.name !== undefined) reservedName(input.name);
  const before = valuesOf(current);
  const values = await connectionValues(current.kind, input, before);
  const rotated = SECRET_FIELDS.filter((field) => input[field] !== undefined && input[field] !== before.secrets[field]);
  const db = await getDb();
  const updated = await db.transaction(async (tx) => {
    if (input.name !== undefined && input.name !== current.name) {
      const taken = await tx.$count(
        providerConnections,
        and(eq(providerConnections.workspaceId, workspaceId), eq(providerConnections.name, input.name)),
      );
      if (taken > 0) throw duplicateName(input.name);
    }
    const [row] = await tx
      .update(providerConnections)
      .set({
        name: input.name ?? current.name,
        settings: values.settings,
        secrets: sealSecrets(current.id, values.secrets),
        ...(rotated.length
          ? {
              previousSecrets: current.secrets,
              previousSecretsUntil: new Date(Date.now() + PREVIOUS_SECRETS_HONOURED_MS),
            }
          : {}),
        ratePerSecond: values.ratePerSecond,
        concurrency: values.concurrency,
        updatedAt: new Date(),
      })
      .where(and(eq(providerConnections.workspaceId, workspaceId), eq(providerConnections.id, id)))
      .returning();
    if (input.name !== undefined && input.name !== current.name) {
      await tx
        .update(routingRules)
        .set({ connections: sql`array_replace(${routingRules.connections}, ${current.name}, ${input.name})` })
        .where(eq(routingRules.workspaceId, workspaceId));
    }
    await auditConnection(tx, actor, "provider_connection.update", current, row, rotated);
    return row;
  });
  invalidateShortLivedCaches();
  return updated;
}
