import type { DeliveryFacts } from "./delivery-state.shared";

/** The timeline's columns of a message nothing has happened to yet, as the lists select them (tests only). */
export const NOTHING_RECORDED_YET = {
  scheduledAt: null,
  sentAt: null,
  deliveredAt: null,
  firstOpenedAt: null,
  firstClickedAt: null,
  firstBouncedAt: null,
  firstComplainedAt: null,
  erroredAt: null,
  lastSuppressedAt: null,
  lastUnsubscribedAt: null,
  handedOverAt: null,
} satisfies Omit<DeliveryFacts, "status" | "sandbox">;
