import "server-only";
import { and, asc, eq, gt, gte, isNull, isNotNull, lt, or, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessageLogs, emailMessages } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { log } from "@/lib/foundation/log";
import { recordEvent } from "@/lib/records/timeline/record-event";
import type { DeliveryProvider } from "./provider";
import { getDeliveryProvider } from "./registry";

const CHUNK = 500;
// Bounds the scan of rows that never leave the partial index, yet covers a worker down for days.
const LOOKBACK_MS = 7 * 24 * 3600 * 1000;
/** One flag per message: recordEvent keeps a providerEventId once. */
export const UNCONFIRMED_EVENT_ID = "postwerk:delivery-unconfirmed";

/**
 * EMAIL_MESSAGE_DELIVERY_UNCONFIRMED for live messages sent DELIVERY_UNCONFIRMED_AFTER_MINUTES ago with no news
 * since. Only messages the current provider sent, so a switch of DELIVERY_PROVIDER flags nothing old.
 */
export async function flagUnconfirmedDeliveries(
  options: { provider?: DeliveryProvider; now?: Date } = {},
): Promise<{ flagged: number }> {
  const minutes = env().DELIVERY_UNCONFIRMED_AFTER_MINUTES;
  if (minutes === 0) return { flagged: 0 };
  const provider = options.provider ?? getDeliveryProvider();
  if (!provider.confirmsDelivery) return { flagged: 0 };
  const db = await getDb();
  const m = emailMessages;
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - minutes * 60_000);
  const sentByProvider = sql`exists (select 1 from ${emailMessageLogs} where ${emailMessageLogs.emailMessageId} = ${m.id}
    and ${emailMessageLogs.providerEventId} = ${`${provider.name}:sent`})`;
  const sentence = `No delivery confirmation from ${provider.description} ${minutes} minutes after sending.`;
  let after: { sentAt: Date; id: string } | null = null;
  let flagged = 0;
  for (;;) {
    const rows: Array<{ id: string; workspaceId: string; sentAt: Date | null }> = await db
      .select({ id: m.id, workspaceId: m.workspaceId, sentAt: m.sentAt })
      .from(m)
      .where(
        and(
          // The partial index's predicate, then its range.
          isNotNull(m.sentAt),
          isNull(m.deliveredAt),
          isNull(m.deliveryUnconfirmedAt),
          lt(m.sentAt, cutoff),
          gte(m.sentAt, new Date(cutoff.getTime() - LOOKBACK_MS)),
          after ? or(gt(m.sentAt, after.sentAt), and(eq(m.sentAt, after.sentAt), gt(m.id, after.id))) : undefined,
          eq(m.sandbox, false),
          isNull(m.firstBouncedAt),
          isNull(m.firstComplainedAt),
          isNull(m.erroredAt),
          sentByProvider,
        ),
      )
      .orderBy(asc(m.sentAt), asc(m.id))
      .limit(CHUNK);
    for (const row of rows) {
      const recorded = await db.transaction((tx) =>
        recordEvent(tx, {
          workspaceId: row.workspaceId,
          messageId: row.id,
          code: "EMAIL_MESSAGE_DELIVERY_UNCONFIRMED",
          message: sentence,
          at: now,
          providerEventId: UNCONFIRMED_EVENT_ID,
          details: { provider: provider.name, afterMinutes: minutes },
        }),
      );
      if (recorded) flagged++;
    }
    if (rows.length < CHUNK) break;
    const last = rows[rows.length - 1];
    after = { sentAt: last.sentAt!, id: last.id };
  }
  if (flagged > 0) log.warn("deliveries unconfirmed", { flagged, provider: provider.name, afterMinutes: minutes });
  return { flagged };
}
