import { emailMessages as m } from "@/db/schema/messages";
import type { DeliveryFacts } from "@/lib/domain/messages/delivery-state.shared";

/**
 * The message columns the dashboard's delivery state is read from (lib/domain/messages/delivery-state.shared.ts):
 * every list of messages selects them beside its own, so a row's state costs no timeline query.
 */
export const DELIVERY_COLUMNS = {
  status: m.status,
  sandbox: m.sandbox,
  scheduledAt: m.scheduledAt,
  sentAt: m.sentAt,
  deliveredAt: m.deliveredAt,
  firstOpenedAt: m.firstOpenedAt,
  firstClickedAt: m.firstClickedAt,
  firstBouncedAt: m.firstBouncedAt,
  firstComplainedAt: m.firstComplainedAt,
  erroredAt: m.erroredAt,
  lastSuppressedAt: m.lastSuppressedAt,
  lastUnsubscribedAt: m.lastUnsubscribedAt,
  handedOverAt: m.handedOverAt,
} satisfies Record<keyof DeliveryFacts, unknown>;
