import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { inboundRoutes } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

export type InboundRoute = typeof inboundRoutes.$inferSelect;

const ID = /^irt_[0-9A-Za-z]{16}$/;

/** One route of the workspace; another workspace's id is the same NOT_FOUND as an unknown one. */
export async function getInboundRouteOrThrow(workspaceId: string, id: string): Promise<InboundRoute> {
  const [row] = ID.test(id)
    ? await (
        await getDb()
      )
        .select()
        .from(inboundRoutes)
        .where(and(eq(inboundRoutes.workspaceId, workspaceId), eq(inboundRoutes.id, id)))
    : [];
  if (!row) throw notFound(`Inbound route ${id}`, "id");
  return row;
}
