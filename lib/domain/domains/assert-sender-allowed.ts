import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import { domains } from "@/db/schema";
import { isSimulatorAddress } from "@/lib/foundation/addresses/simulator.shared";
import { isTestSenderAddress, TEST_SENDER_DOMAIN } from "@/lib/foundation/addresses/test-sender.shared";
import { env, type Env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";
import { ShortLivedCache } from "@/lib/foundation/short-lived-cache";

/** A workspace's domain status by name, from the request path's short-lived cache (lib/foundation/short-lived-cache.ts). */
const statuses = new ShortLivedCache<string | undefined>();

/** Where a message goes: the sandbox (nowhere), the outcome simulator, or the configured provider. */
export type SendRoute = "sandbox" | "simulator" | Env["DELIVERY_PROVIDER"];

/** The routes on which nothing leaves this machine: the only ones the test sender may take. */
const STAYS_HERE: ReadonlySet<SendRoute> = new Set(["sandbox", "simulator", "local"]);

/** The route delivery will give a message (lib/delivery/providers/simulator: simulator addresses whatever the provider). */
export function sendRouteOf(sandbox: boolean, recipients: readonly string[]): SendRoute {
  if (sandbox) return "sandbox";
  if (recipients.length > 0 && recipients.every(isSimulatorAddress)) return "simulator";
  return env().DELIVERY_PROVIDER;
}

/**
 * 422 unless the sender may send on this route (docs/api.md#decided-sending): the test sender while nothing leaves the
 * machine, any other domain when VERIFIED here. `"later"` (SMTP's MAIL FROM, before RCPT names the recipients) leaves
 * the test sender to assertTestSenderMaySend at RCPT. Outside a transaction the status comes from the short-lived cache.
 */
export async function assertSenderAllowed(
  db: Executor,
  workspaceId: string,
  address: string,
  route: SendRoute | "later",
): Promise<void> {
  if (isTestSenderAddress(address)) {
    if (route !== "later") assertTestSenderMaySend(address, route);
    return;
  }
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

/** 422 naming `from` when the test sender would leave the machine on this route; any other sender passes. */
export function assertTestSenderMaySend(address: string, route: SendRoute): void {
  const rejection = isTestSenderAddress(address) ? testSenderRejection(route) : null;
  if (rejection) throw new AppError("EMAIL_MESSAGE_INVALID_SENDER_ERROR", rejection, { param: "from" });
}

/** Why the test sender may not take this route (also delivery's check, with the provider it picked), or null. */
export function testSenderRejection(route: SendRoute): string | null {
  if (STAYS_HERE.has(route)) return null;
  return (
    `${TEST_SENDER_DOMAIN} is the test sender: it sends only while nothing leaves this machine (the sandbox, ` +
    `DELIVERY_PROVIDER=local, or recipients @simulator.postwerk.test), and this message would go out through ` +
    `DELIVERY_PROVIDER=${route}. Send from a domain of your own: ${HOW_TO_ADD}`
  );
}

const HOW_TO_ADD =
  "add it on the dashboard's Domains page and verify it, or add it verified without DNS with " +
  "`npm run cli -- domain add --workspace <workspace> --name <domain> --verified` " +
  "(or set DOMAIN_VERIFICATION=off so domains count as verified when added).";

/** Why a sender domain with this status (undefined: not a domain of the workspace) may not send, or null. */
export function senderDomainRejection(domain: string, status: string | undefined): string | null {
  if (status === "VERIFIED") return null;
  return status
    ? `The sender domain ${domain} is not verified yet. Publish its DNS records and verify it in the dashboard ` +
        "(a domain without public DNS cannot verify: set DOMAIN_VERIFICATION=off and verify it again)."
    : `The sender domain ${domain} is not a domain of this workspace. To send from it, ${HOW_TO_ADD} ` +
        `To try sending first, use the test sender test@${TEST_SENDER_DOMAIN} (docs/api.md#the-test-sender).`;
}
