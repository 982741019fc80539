import { describe, expect, it } from "vitest";
import { DELIVERY_STATES, deliveryState, type DeliveryFacts } from "./delivery-state.shared";
import { NOTHING_RECORDED_YET } from "./testing";

const at = new Date("2026-11-28T12:00:00Z");

/** A live message nothing has happened to yet, as accepted. */
function facts(overrides: Partial<DeliveryFacts> = {}): DeliveryFacts {
  return {
    status: "PENDING",
    sandbox: false,
    ...NOTHING_RECORDED_YET,
    ...overrides,
  };
}

const sent = { status: "SUCCEEDED", sentAt: at } as const;

describe("deliveryState", () => {
  it.each<[string, Partial<DeliveryFacts>, string, string]>([
    ["a hard bounce the API calls SUCCEEDED", { ...sent, firstBouncedAt: at }, "Bounced", "bad"],
    ["a complaint", { ...sent, deliveredAt: at, firstComplainedAt: at }, "Complained", "bad"],
    ["an error at acceptance", { status: "FAILED", erroredAt: at }, "Failed", "bad"],
    ["FAILED without an error time (an older row)", { status: "FAILED" }, "Failed", "bad"],
    ["a cancelled scheduled send", { status: "CANCELLED", scheduledAt: at }, "Cancelled", "neutral"],
    ["an unsubscribe through it", { ...sent, deliveredAt: at, lastUnsubscribedAt: at }, "Unsubscribed", "neutral"],
    ["a click", { ...sent, deliveredAt: at, firstOpenedAt: at, firstClickedAt: at }, "Clicked", "good"],
    ["an open", { ...sent, deliveredAt: at, firstOpenedAt: at }, "Opened", "good"],
    ["a delivery report", { ...sent, deliveredAt: at }, "Delivered", "good"],
    ["every recipient suppressed", { status: "SUCCEEDED", lastSuppressedAt: at }, "Suppressed", "bad"],
    ["a send without a delivery report", sent, "Sent", "good"],
    ["a sandbox message", { status: "SUCCEEDED", sandbox: true }, "Sandbox", "neutral"],
    ["a message erased before it was sent", { status: "DELETED" }, "Erased", "neutral"],
    ["a message held while sending is paused", { status: "PAUSED" }, "Held", "waiting"],
    ["a message being handed over", { handedOverAt: at }, "Sending", "waiting"],
    ["a scheduled message", { scheduledAt: at }, "Scheduled", "waiting"],
    ["a message waiting for the worker", {}, "Queued", "waiting"],
    ["SUCCEEDED with no timeline fact", { status: "SUCCEEDED" }, "Sent", "good"],
  ])("%s: %s", (_case, overrides, state, tone) => {
    const view = deliveryState(facts(overrides));
    expect(view.state).toBe(state);
    expect(view.tone).toBe(tone);
    expect(view.explanation).not.toBe("");
  });

  it("covers every state it can name", () => {
    expect(new Set(DELIVERY_STATES).size).toBe(DELIVERY_STATES.length);
    expect(DELIVERY_STATES).toHaveLength(16);
  });

  // Each pair: the earlier state wins when both facts are on the row (docs/dashboard.md#delivery-state).
  it.each<[Partial<DeliveryFacts>, string]>([
    [{ firstComplainedAt: at, firstBouncedAt: at }, "Complained"],
    [{ firstBouncedAt: at, erroredAt: at, status: "FAILED" }, "Bounced"],
    [{ erroredAt: at, status: "FAILED", lastSuppressedAt: at }, "Failed"],
    [{ firstBouncedAt: at, firstClickedAt: at }, "Bounced"],
    [{ lastUnsubscribedAt: at, firstClickedAt: at }, "Unsubscribed"],
    [{ firstClickedAt: at, firstOpenedAt: at }, "Clicked"],
    [{ firstOpenedAt: at, deliveredAt: at }, "Opened"],
    [{ deliveredAt: at, lastSuppressedAt: at }, "Delivered"],
    [{ lastSuppressedAt: at, sentAt: at }, "Suppressed"],
    [{ status: "DELETED", deliveredAt: at }, "Delivered"],
    [{ status: "PAUSED", scheduledAt: at }, "Held"],
    [{ status: "PENDING", handedOverAt: at, scheduledAt: at }, "Sending"],
  ])("precedence: %o reads %s", (overrides, state) => {
    expect(deliveryState(facts({ status: "SUCCEEDED", ...overrides })).state).toBe(state);
  });
});
