import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { memberships, users, webhookEndpoints, workspaces } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { errorFields, log } from "@/lib/foundation/log";
import { sendSystemMail } from "@/lib/sending/send-system-mail";

/** An endpoint failing every attempt this long is disabled (as Svix does). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;

/** Disables the endpoint after 5 days failing or WEBHOOK_DISABLE_AFTER_FAILURES exhausted deliveries in a row; returns why, if now. */
export async function countEndpointFailure(
  tx: Tx,
  endpointId: string,
  now: Date,
  failedDeliveries: number,
): Promise<string | null> {
  const e = webhookEndpoints;
  const [row] = await tx
    .update(e)
    .set({
      failingSince: sql`coalesce(${e.failingSince}, ${now.toISOString()}::timestamptz)`,
      consecutiveFailures: sql`${e.consecutiveFailures} + ${failedDeliveries}`,
    })
    .where(eq(e.id, endpointId))
    .returning({ enabled: e.enabled, failingSince: e.failingSince, consecutiveFailures: e.consecutiveFailures });
  if (!row?.enabled) return null;
  const limit = env().WEBHOOK_DISABLE_AFTER_FAILURES;
  let reason: string | null = null;
  if (row.failingSince && now.getTime() - row.failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) {
    reason = `Every delivery attempt failed for 5 days (since ${row.failingSince.toISOString()}).`;
  } else if (limit > 0 && row.consecutiveFailures >= limit) {
    reason = `${row.consecutiveFailures} deliveries in a row failed every attempt.`;
  }
  if (!reason) return null;
  await tx.update(e).set({ enabled: false, disabledReason: reason, updatedAt: now }).where(eq(e.id, endpointId));
  return reason;
}

/** Any success ends a failing streak; written only during one, so a healthy endpoint's row is not rewritten per delivery. */
export async function clearEndpointFailures(tx: Tx, endpointId: string): Promise<void> {
  const e = webhookEndpoints;
  await tx
    .update(e)
    .set({ failingSince: null, consecutiveFailures: 0 })
    .where(and(eq(e.id, endpointId), sql`(${e.failingSince} is not null or ${e.consecutiveFailures} <> 0)`));
}

/** Tells the workspace's owners, through system mail; a failure to send is logged, never thrown (the disable stands). */
export async function mailOwnersAboutDisabled(endpointId: string, reason: string): Promise<void> {
  try {
    const db = await getDb();
    const [endpoint] = await db
      .select({ url: webhookEndpoints.url, workspaceId: webhookEndpoints.workspaceId, workspace: workspaces.name })
      .from(webhookEndpoints)
      .innerJoin(workspaces, eq(workspaces.id, webhookEndpoints.workspaceId))
      .where(eq(webhookEndpoints.id, endpointId));
    if (!endpoint) return;
    const owners = await db
      .select({ email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.workspaceId, endpoint.workspaceId), eq(memberships.role, "OWNER")));
    const link = `${env().APP_URL}/webhooks`;
    for (const owner of owners) {
      await sendSystemMail({
        to: owner.email,
        subject: `Webhook endpoint disabled: ${endpoint.url}`,
        text: `The webhook endpoint ${endpoint.url} of ${endpoint.workspace} was disabled.\n\n${reason}\n\nFix the receiver, re-enable it and replay what it missed: ${link}`,
        html: `<p>The webhook endpoint <b>${escapeHtml(endpoint.url)}</b> of ${escapeHtml(endpoint.workspace)} was disabled.</p><p>${escapeHtml(reason)}</p><p>Fix the receiver, re-enable it and replay what it missed: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
      });
    }
  } catch (error) {
    log.error("could not mail the owners about a disabled webhook endpoint", { endpointId, ...errorFields(error) });
  }
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
