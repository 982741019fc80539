import "server-only";
import { getDb } from "@/db/client";
import { errorFields, log } from "@/lib/foundation/log";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { classifyOpen, type Client } from "./bot-rules";
import { engagementSentence } from "./sentence";
import { findTrackedMessage } from "./find-tracked-message";
import { verifyOpenToken } from "./token";

/** Whether the token was ours. Never throws: the pixel is answered whatever happens, a recording failure logged. */
export async function trackOpen(token: string, client: Client, now: Date = new Date()): Promise<boolean> {
  const claim = verifyOpenToken(token);
  if (!claim) return false;
  try {
    const db = await getDb();
    const message = await findTrackedMessage(db, claim.messageId);
    if (!message) return true;
    const verdict = classifyOpen(client);
    await recordEvent(db, {
      workspaceId: message.workspaceId,
      messageId: message.id,
      code: "EMAIL_MESSAGE_OPEN_PROVIDER_EVENT",
      message: engagementSentence("Opened", now, client, verdict),
      at: now,
      bot: verdict.bot,
      details: { source: "tracking", ipAddress: client.ip, userAgent: client.userAgent, botReason: verdict.reason },
    });
  } catch (error) {
    log.error("could not record an open", { messageId: claim.messageId, ...errorFields(error) });
  }
  return true;
}
