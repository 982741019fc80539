import "server-only";
import { asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { domains } from "@/db/schema";

export interface DomainSummary {
  id: string;
  name: string;
  status: (typeof domains.$inferSelect)["status"];
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  lastCheckError: string | null;
  createdAt: Date;
}

/** A workspace's sending domains by name (a handful per workspace: no paging). Keys stay out of the list. */
export async function listDomains(workspaceId: string): Promise<DomainSummary[]> {
  return (await getDb())
    .select({
      id: domains.id,
      name: domains.name,
      status: domains.status,
      verifiedAt: domains.verifiedAt,
      lastCheckedAt: domains.lastCheckedAt,
      lastCheckError: domains.lastCheckError,
      createdAt: domains.createdAt,
    })
    .from(domains)
    .where(eq(domains.workspaceId, workspaceId))
    .orderBy(asc(domains.name))
    .limit(500);
}
