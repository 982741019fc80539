import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema/index";
import type { SimulateOutcomeJob } from "@/lib/records/queue/jobs";
import { recordProviderEvent } from "@/lib/delivery/provider-events/record-provider-event";
import { firstLinkOf, simulatedEvent, stepOf } from "./simulated-events";

/**
 * One round of reports, idempotent by providerEventId. A later round records the earlier rounds' steps first, so
 * "delayed" still reads before "delivered" when jobs run out of order.
 */
export async function simulateOutcome(job: SimulateOutcomeJob): Promise<void> {
  const steps = [];
  for (let round = 0; round <= job.round; round++) {
    for (const address of job.recipients) {
      const step = stepOf(address, round);
      if (step) steps.push({ address, step });
    }
  }
  const link = steps.some(({ step }) => step === "clicked") ? await messageLink(job.messageId) : null;
  for (const { address, step } of steps) {
    const result = await recordProviderEvent(
      { messageId: job.messageId },
      simulatedEvent({ messageId: job.messageId, address, step, at: new Date(), link }),
    );
    // Purged meanwhile: nothing left to report on.
    if (result.outcome === "unknown-message") return;
  }
}

/** The message's first link, read from the HTML as accepted (before tracking rewrote it). */
async function messageLink(messageId: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ html: emailMessages.bodyHtml })
    .from(emailMessages)
    .where(eq(emailMessages.id, messageId));
  return firstLinkOf(row?.html ?? null);
}
