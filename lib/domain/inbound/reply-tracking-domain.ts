import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { inboundDomains } from "@/db/schema";
import { env } from "@/lib/foundation/env";

/**
 * Where a send's reply-tracking address lives (docs/inbound.md#reply-tracking): the workspace's oldest verified
 * inbound domain, where its replies are routed like the rest of its mail; else BOUNCE_DOMAIN, which the listener
 * takes for every workspace's tokens; null when there is neither.
 */
export async function replyTrackingDomain(db: Executor, workspaceId: string): Promise<string | null> {
  const [domain] = await db
    .select({ name: inboundDomains.name })
    .from(inboundDomains)
    .where(and(eq(inboundDomains.workspaceId, workspaceId), eq(inboundDomains.status, "VERIFIED")))
    .orderBy(asc(inboundDomains.createdAt), asc(inboundDomains.id))
    .limit(1);
  return domain?.name ?? env().BOUNCE_DOMAIN?.toLowerCase() ?? null;
}
