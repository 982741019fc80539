import "server-only";
import { and, eq, gte } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { emailMessageLogs } from "@/db/schema";
import { errorFields, log } from "@/lib/foundation/log";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { classifyClick, LINK_BURST_SECONDS, type Client } from "./bot-rules";
import { findTrackedMessage } from "./find-tracked-message";
import { engagementSentence } from "./sentence";
import { verifyClickToken, type ClickClaim } from "./token";

const CLICKED = "EMAIL_MESSAGE_CLICKED_PROVIDER_EVENT";

/** Redirects exactly where signed at delivery (no open redirect); null for a token not ours. A recording failure is logged only. */
export async function trackClick(token: string, client: Client, now: Date = new Date()): Promise<string | null> {
  const claim = verifyClickToken(token);
  if (!claim) return null;
  try {
    const db = await getDb();
    await db.transaction((tx) => recordClick(tx, claim, client, now));
  } catch (error) {
    log.error("could not record a click", { messageId: claim.messageId, ...errorFields(error) });
  }
  return redirectTarget(claim);
}

/** Where a click token leads, without recording anything (HEAD requests of link checkers); null when forged. */
export function clickTarget(token: string): string | null {
  const claim = verifyClickToken(token);
  return claim ? redirectTarget(claim) : null;
}

/** Normalised (non-ASCII percent-encoded) so it is a valid Location header value. */
function redirectTarget(claim: ClickClaim): string {
  return new URL(claim.url).href;
}

async function recordClick(tx: Tx, claim: ClickClaim, client: Client, now: Date): Promise<void> {
  const message = await findTrackedMessage(tx, claim.messageId, { lock: true });
  if (!message) return;
  const verdict = classifyClick(client, {
    linkIndex: claim.linkIndex,
    now,
    sentAt: message.sentAt,
    recentClicks: await recentClicks(tx, message.id, now),
  });
  await recordEvent(tx, {
    workspaceId: message.workspaceId,
    messageId: message.id,
    code: CLICKED,
    message: engagementSentence(`Clicked ${claim.url}`, now, client, verdict),
    at: now,
    bot: verdict.bot,
    details: {
      source: "tracking",
      link: claim.url,
      linkIndex: claim.linkIndex,
      ipAddress: client.ip,
      userAgent: client.userAgent,
      botReason: verdict.reason,
    },
  });
}

/** The message's clicks of the last LINK_BURST_SECONDS (index-backed: email_message_logs_message_idx). */
async function recentClicks(tx: Tx, messageId: string, now: Date) {
  const since = new Date(now.getTime() - LINK_BURST_SECONDS * 1000);
  const rows = await tx
    .select({ details: emailMessageLogs.details })
    .from(emailMessageLogs)
    .where(
      and(
        eq(emailMessageLogs.emailMessageId, messageId),
        gte(emailMessageLogs.createdAt, since),
        eq(emailMessageLogs.code, CLICKED),
      ),
    );
  return rows.map(({ details }) => ({
    linkIndex: Number(details.linkIndex),
    ip: String(details.ipAddress ?? ""),
    userAgent: String(details.userAgent ?? ""),
  }));
}
