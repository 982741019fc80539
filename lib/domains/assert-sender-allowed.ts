import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import { domains } from "@/db/schema";
import { AppError } from "@/lib/errors";

/** The sender's domain must be a VERIFIED domain of the workspace (docs/api.md#decided-sending: 422 otherwise). */
export async function assertSenderDomainVerified(db: Executor, workspaceId: string, address: string): Promise<void> {
  const domain = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
  const query = () => db.select({ status: domains.status }).from(domains);
  const [row] =
    db === (await getDb())
      ? await preparedFor(db, "sender-domain", () =>
          query()
            .where(and(eq(domains.workspaceId, sql.placeholder("workspaceId")), eq(domains.name, sql.placeholder("name"))))
            .prepare("sender_domain"),
        ).execute({ workspaceId, name: domain })
      : await query().where(and(eq(domains.workspaceId, workspaceId), eq(domains.name, domain)));
  const rejection = senderDomainRejection(domain, row?.status);
  if (rejection) throw new AppError("EMAIL_MESSAGE_INVALID_SENDER_ERROR", rejection, { param: "from" });
}

/** Why a sender domain with this status (undefined: not a domain of the workspace) may not send, or null. */
export function senderDomainRejection(domain: string, status: string | undefined): string | null {
  if (status === "VERIFIED") return null;
  return status
    ? `The sender domain ${domain} is not verified yet. Publish its DNS records and verify it in the dashboard.`
    : `The sender domain ${domain} is not a domain of this workspace. Add and verify it first.`;
}
