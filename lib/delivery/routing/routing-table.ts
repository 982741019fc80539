import "server-only";
import type { Executor } from "@/db/client";
import { listConnections, type ProviderConnection } from "@/lib/domain/providers/get-connection";
import { listRules, type RoutingRule } from "@/lib/domain/providers/get-rule";
import { ShortLivedCache } from "@/lib/foundation/short-lived-cache";

/** A workspace's connections and its enabled rules in order: what routing reads for each message. */
export interface RoutingTable {
  connections: ProviderConnection[];
  rules: RoutingRule[];
}

const tables = new ShortLivedCache<RoutingTable>();

/** Read at most once a second per workspace and process (short-lived-cache.ts): every write invalidates it. */
export function routingTableOf(db: Executor, workspaceId: string): Promise<RoutingTable> {
  return tables.get(db, workspaceId, async () => {
    const [connections, rules] = await Promise.all([listConnections(workspaceId, db), listRules(workspaceId, db)]);
    return { connections, rules: rules.filter((rule) => rule.enabled) };
  });
}
