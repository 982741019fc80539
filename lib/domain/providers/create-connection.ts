import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { providerConnections } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { AppError } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import { sealSecrets } from "./connection-secrets";
import { auditConnection, connectionValues, duplicateName, MAX_CONNECTIONS, reservedName } from "./connection-writes";
import type { ProviderConnection } from "./get-connection";
import { createConnectionSchema } from "./schemas";

/** A workspace's own provider connection (docs/delivery.md#routing-and-failover); secrets sealed, audited. */
export async function createConnection(
  workspaceId: string,
  body: unknown,
  actor: AuditActor,
): Promise<ProviderConnection> {
  const parsed = createConnectionSchema.safeParse(body ?? {});
  if (!parsed.success) throw zodToAppError(parsed.error);
  const input = parsed.data;
  reservedName(input.name);
  const values = await connectionValues(input.kind, input);
  const db = await getDb();
  const existing = await db.$count(providerConnections, eq(providerConnections.workspaceId, workspaceId));
  if (existing >= MAX_CONNECTIONS)
    throw new AppError("CONFLICT", `A workspace has at most ${MAX_CONNECTIONS} connections; delete one first.`, {
      param: "name",
    });
  const id = newId("providerConnection");
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(providerConnections)
      .values({
        id,
        workspaceId,
        name: input.name,
        kind: input.kind,
        settings: values.settings,
        secrets: sealSecrets(id, values.secrets),
        ratePerSecond: values.ratePerSecond,
        concurrency: values.concurrency,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw duplicateName(input.name);
    await auditConnection(tx, actor, "provider_connection.create", null, row);
    return row;
  });
  invalidateShortLivedCaches();
  return created;
}
