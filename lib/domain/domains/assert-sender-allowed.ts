import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import { domains } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { ShortLivedCache } from "@/lib/foundation/short-lived-cache";

/** A workspace's domain status by name, from the request path's short-lived cache (lib/foundation/short-lived-cache.ts). */
const statuses = new ShortLivedCache<string | undefined>();

/** 422 unless VERIFIED here (docs/api.md#decided-sending); outside a transaction read from the short-lived cache. */
export async function assertSenderDomainVerified(db: Executor, workspaceId: string, address: string): Promise<void> {
  const domain = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
  const query = () => db.select({ status: domains.status }).from(domains);
  const status =
    db === (await getDb())
      ? await statuses.get(db, `${workspaceId}\n${domain}`, async () => {
          const prepared = preparedFor(db, "sender-domain", () =>
            query()
              .where(
                and(eq(domains.workspaceId, sql.placeholder("workspaceId")), eq(domains.name, sql.placeholder("name"))),
              )
              .prepare("sender_domain"),
          );
          return (await prepared.execute({ workspaceId, name: domain }))[0]?.status;
        })
      : (await query().where(and(eq(domains.workspaceId, workspaceId), eq(domains.name, domain))))[0]?.status;
  const rejection = senderDomainRejection(domain, status);
  if (rejection) throw new AppError("EMAIL_MESSAGE_INVALID_SENDER_ERROR", rejection, { param: "from" });
}

/** Why a sender domain with this status (undefined: not a domain of the workspace) may not send, or null. */
export function senderDomainRejection(domain: string, status: string | undefined): string | null {
  if (status === "VERIFIED") return null;
  return status
    ? `The sender domain ${domain} is not verified yet. Publish its DNS records and verify it in the dashboard.`
    : `The sender domain ${domain} is not a domain of this workspace. Add and verify it first.`;
}
