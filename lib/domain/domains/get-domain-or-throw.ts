import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { domains } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";

export type Domain = typeof domains.$inferSelect;

/** One domain of the workspace; another workspace's id is the same NOT_FOUND as an unknown one. */
export async function getDomainOrThrow(workspaceId: string, domainId: string): Promise<Domain> {
  const db = await getDb();
  const [domain] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.workspaceId, workspaceId), eq(domains.id, domainId)));
  if (!domain) throw notFound(`Domain ${domainId}`, "id");
  return domain;
}

/** The CLI names a domain by id or by name. */
export async function findDomainOrThrow(workspaceId: string, ref: string): Promise<Domain> {
  const db = await getDb();
  const byName = ref.trim().toLowerCase().replace(/\.$/, "");
  const [domain] = await db
    .select()
    .from(domains)
    .where(
      and(
        eq(domains.workspaceId, workspaceId),
        ref.startsWith("dom_") ? eq(domains.id, ref) : eq(domains.name, byName),
      ),
    );
  if (!domain) throw notFound(`Domain ${ref}`, "id");
  return domain;
}
