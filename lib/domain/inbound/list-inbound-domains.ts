import "server-only";
import { asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { inboundDomains } from "@/db/schema";
import type { InboundDomain } from "./get-inbound-domain";

/** A workspace's inbound domains by name (a handful per workspace: no paging). */
export async function listInboundDomains(workspaceId: string): Promise<InboundDomain[]> {
  return (await getDb())
    .select()
    .from(inboundDomains)
    .where(eq(inboundDomains.workspaceId, workspaceId))
    .orderBy(asc(inboundDomains.name))
    .limit(500);
}
