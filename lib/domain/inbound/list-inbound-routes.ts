import "server-only";
import { and, eq, inArray, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import { keysetPage } from "@/db/keyset";
import { inboundDomains, inboundRoutes } from "@/db/schema";
import { parseKeysetPageQuery, queryParam, type KeysetPageQuery } from "@/lib/foundation/pagination";
import type { InboundRoute } from "./get-inbound-route";
import { normalizeDomain } from "./inbound-domain-name";

export interface InboundRouteListQuery extends KeysetPageQuery {
  /** An inbound domain's id (idom_…) or name: only its routes. */
  domain?: string;
}

export function parseInboundRouteListQuery(params: URLSearchParams): InboundRouteListQuery {
  const domain = queryParam(params, "domain")?.trim();
  return { ...parseKeysetPageQuery(params, { maxLimit: 100 }), ...(domain ? { domain } : {}) };
}

/** Newest first, keyset cursors (docs/api.md#inbound-domains-and-routes); a domain that is not the workspace's lists nothing. */
export async function listInboundRoutes(workspaceId: string, query: InboundRouteListQuery) {
  const db = await getDb();
  const t = inboundRoutes;
  const filters: SQL[] = [];
  if (query.domain) {
    const byDomain = db
      .select({ id: inboundDomains.id })
      .from(inboundDomains)
      .where(
        and(
          eq(inboundDomains.workspaceId, workspaceId),
          query.domain.startsWith("idom_")
            ? eq(inboundDomains.id, query.domain)
            : eq(inboundDomains.name, normalizeDomain(query.domain)),
        ),
      );
    filters.push(inArray(t.inboundDomainId, byDomain));
  }
  const page = { limit: query.limit, cursor: query.cursor };
  return keysetPage<InboundRoute>(
    { db, table: t, createdAt: t.createdAt, id: t.id, scope: eq(t.workspaceId, workspaceId), filters },
    page,
  );
}
