import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { domains, workspaces } from "@/db/schema";
import { addDomainIn } from "@/lib/domain/domains/add-domain";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";
import { parseSingleAddress } from "@/lib/foundation/addresses/recipients.shared";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";

// System mail (sign-in links, invitations) lives in this workspace, never a tenant's, whose members could read a
// colleague's link. /setup makes the first owner its owner, so the operator can read it in the local inbox.
export const SYSTEM_WORKSPACE_ID = "ws_0000000000SYSTEM";
export const SYSTEM_WORKSPACE_NAME = "System mail";
/** Any fixed number: two processes booting at once create the workspace and its domain once. */
const SYSTEM_WORKSPACE_LOCK = 7_245_003;

export function isSystemWorkspace(workspaceId: string): boolean {
  return workspaceId === SYSTEM_WORKSPACE_ID;
}

/** Live, untracked, its sender's domain VERIFIED; idempotent, run at every boot. */
export async function ensureSystemWorkspace(from: string = env().SYSTEM_EMAIL_FROM): Promise<void> {
  const domainName = senderDomain(from);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SYSTEM_WORKSPACE_LOCK})`);
    await tx
      .insert(workspaces)
      .values({ id: SYSTEM_WORKSPACE_ID, name: SYSTEM_WORKSPACE_NAME, testMode: false, trackingEnabled: false })
      .onConflictDoNothing();
    const [domain] = await tx
      .select({ id: domains.id, status: domains.status })
      .from(domains)
      .where(and(eq(domains.workspaceId, SYSTEM_WORKSPACE_ID), eq(domains.name, domainName)));
    if (!domain) await addDomainIn(tx, { workspaceId: SYSTEM_WORKSPACE_ID, name: domainName, verified: true });
    else if (domain.status !== "VERIFIED") {
      await tx.update(domains).set({ status: "VERIFIED", verifiedAt: new Date() }).where(eq(domains.id, domain.id));
    }
  });
  invalidateShortLivedCaches();
}

function senderDomain(from: string): string {
  try {
    const { address } = parseSingleAddress(from, "SYSTEM_EMAIL_FROM", "EMAIL_MESSAGE_INVALID_SENDER_ERROR");
    return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    throw new Error(`SYSTEM_EMAIL_FROM "${from}" is not a usable sender: use "Name <address@your-domain.tld>".`);
  }
}
