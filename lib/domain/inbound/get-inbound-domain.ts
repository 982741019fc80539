import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { inboundDomains } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";
import { normalizeDomain } from "./inbound-domain-name";

export type InboundDomain = typeof inboundDomains.$inferSelect;

const ID = /^idom_[0-9A-Za-z]{16}$/;

/** One inbound domain of the workspace; another workspace's id is the same NOT_FOUND as an unknown one. */
export async function getInboundDomainOrThrow(workspaceId: string, id: string): Promise<InboundDomain> {
  return getInboundDomainOrThrowIn(await getDb(), workspaceId, id);
}

export async function getInboundDomainOrThrowIn(db: Executor, workspaceId: string, id: string): Promise<InboundDomain> {
  const [row] = ID.test(id)
    ? await db
        .select()
        .from(inboundDomains)
        .where(and(eq(inboundDomains.workspaceId, workspaceId), eq(inboundDomains.id, id)))
    : [];
  if (!row) throw notFound(`Inbound domain ${id}`, "id");
  return row;
}

/** The CLI and the routes filter name a domain by id or by name. */
export async function findInboundDomainOrThrow(workspaceId: string, ref: string, param = "id"): Promise<InboundDomain> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(inboundDomains)
    .where(
      and(
        eq(inboundDomains.workspaceId, workspaceId),
        ref.startsWith("idom_") ? eq(inboundDomains.id, ref) : eq(inboundDomains.name, normalizeDomain(ref)),
      ),
    );
  if (!row) throw notFound(`Inbound domain ${ref}`, param);
  return row;
}
