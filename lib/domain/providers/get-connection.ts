import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { providerConnections } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

export type ProviderConnection = typeof providerConnections.$inferSelect;

const ID = /^pcon_[0-9A-Za-z]{16}$/;

/** One connection of the workspace; another workspace's id is the same NOT_FOUND as an unknown one. */
export async function getConnectionOrThrow(workspaceId: string, id: string): Promise<ProviderConnection> {
  const [row] = ID.test(id)
    ? await (
        await getDb()
      )
        .select()
        .from(providerConnections)
        .where(and(eq(providerConnections.workspaceId, workspaceId), eq(providerConnections.id, id)))
    : [];
  if (!row) throw notFound(`Provider connection ${id}`, "id");
  return row;
}

/** Every connection of the workspace, by name (a workspace has at most MAX_CONNECTIONS). */
export async function listConnections(workspaceId: string, db?: Executor): Promise<ProviderConnection[]> {
  return (db ?? (await getDb()))
    .select()
    .from(providerConnections)
    .where(eq(providerConnections.workspaceId, workspaceId))
    .orderBy(asc(providerConnections.name));
}
