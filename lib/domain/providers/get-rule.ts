import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { routingRules } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

export type RoutingRule = typeof routingRules.$inferSelect;

const ID = /^rrule_[0-9A-Za-z]{16}$/;

/** One rule of the workspace; another workspace's id is the same NOT_FOUND as an unknown one. */
export async function getRuleOrThrow(workspaceId: string, id: string): Promise<RoutingRule> {
  const [row] = ID.test(id)
    ? await (
        await getDb()
      )
        .select()
        .from(routingRules)
        .where(and(eq(routingRules.workspaceId, workspaceId), eq(routingRules.id, id)))
    : [];
  if (!row) throw notFound(`Routing rule ${id}`, "id");
  return row;
}

/** The workspace's rules in the order they are tried (at most MAX_RULES). */
export async function listRules(workspaceId: string, db?: Executor): Promise<RoutingRule[]> {
  return (db ?? (await getDb()))
    .select()
    .from(routingRules)
    .where(eq(routingRules.workspaceId, workspaceId))
    .orderBy(asc(routingRules.position), asc(routingRules.createdAt), asc(routingRules.id));
}
