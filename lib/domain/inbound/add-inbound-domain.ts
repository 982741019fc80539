import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { inboundDomains } from "@/db/schema";
import { AUDIT_SYSTEM_ACTOR, type AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import type { InboundDomain } from "./get-inbound-domain";
import { inboundDomainNameOrThrow, inboundMxHost } from "./inbound-domain-name";

export interface AddInboundDomainInput {
  workspaceId: string;
  name: string;
  /** Verified without a lookup; absent: as DOMAIN_VERIFICATION says (off: verified at once, as sender domains). */
  verified?: boolean;
  actor?: AuditActor;
}

/**
 * Adds a domain to receive mail for; its MX must then point at inboundMxHost(). One workspace per domain (the MX
 * routes to one): a name another workspace holds is a 409 naming `name` (docs/api.md#inbound-domains-and-routes).
 */
export async function addInboundDomain(input: AddInboundDomainInput): Promise<InboundDomain> {
  const name = inboundDomainNameOrThrow(input.name);
  const verified = input.verified ?? env().DOMAIN_VERIFICATION === "off";
  const db = await getDb();
  const added = await db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .insert(inboundDomains)
      .values({
        id: newId("inboundDomain"),
        workspaceId: input.workspaceId,
        name,
        status: verified ? "VERIFIED" : "PENDING",
        verifiedAt: verified ? now : null,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return null;
    await recordAudit(tx, {
      workspaceId: row.workspaceId,
      actor: input.actor ?? AUDIT_SYSTEM_ACTOR,
      action: "inbound_domain.add",
      target: { type: "inbound_domain", id: row.id },
      after: { name: row.name, status: row.status, mxHost: inboundMxHost() },
    });
    return row;
  });
  if (!added) throw await takenError(input.workspaceId, name);
  invalidateShortLivedCaches();
  return added;
}

/** Who holds the name decides the sentence; another workspace is never named. */
async function takenError(workspaceId: string, name: string): Promise<AppError> {
  const [holder] = await (
    await getDb()
  )
    .select({ workspaceId: inboundDomains.workspaceId })
    .from(inboundDomains)
    .where(eq(inboundDomains.name, name));
  const message =
    holder?.workspaceId === workspaceId
      ? `The inbound domain ${name} is already added to this workspace.`
      : `The inbound domain ${name} is held by another workspace: a domain's mail goes to one workspace. Its owner must delete it there first.`;
  return new AppError("CONFLICT", message, { param: "name" });
}
