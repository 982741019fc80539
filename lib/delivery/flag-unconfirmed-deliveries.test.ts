import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { flagUnconfirmedDeliveries, UNCONFIRMED_EVENT_ID } from "./flag-unconfirmed-deliveries";
import type { DeliveryProvider } from "./provider";

const provider = (
  name: DeliveryProvider["name"],
  confirmsDelivery: boolean,
  description: string,
): DeliveryProvider => ({
  name,
  description,
  transactional: false,
  confirmsDelivery,
  send: async () => ({ outcome: "failed", diagnostic: "not used" }),
});
const resend = provider("resend", true, "Resend");
const smtp = provider("smtp", false, "the SMTP relay smtp.test");

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** A live message sent `minutes` ago through `by` (its SENT event), plus whatever happened since. */
async function sentMessage(
  workspaceId: string,
  minutes: number,
  options: { by?: string; then?: "delivered" | "bounced"; sandbox?: boolean } = {},
) {
  const sentAt = minutesAgo(minutes);
  const id = await insertTestMessage(workspaceId, {
    status: "SUCCEEDED",
    sentAt,
    sandbox: options.sandbox ?? false,
    createdAt: sentAt,
  });
  const db = await getDb();
  const ids = { workspaceId, messageId: id };
  await recordEvent(db, {
    ...ids,
    code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
    message: "Sent.",
    at: sentAt,
    providerEventId: `${options.by ?? "resend"}:sent`,
  });
  if (options.then === "delivered")
    await recordEvent(db, {
      ...ids,
      code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
      message: "Delivered.",
      at: new Date(sentAt.getTime() + 1000),
    });
  if (options.then === "bounced")
    await recordEvent(db, {
      ...ids,
      code: "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
      message: "Bounced.",
      at: new Date(sentAt.getTime() + 1000),
    });
  return id;
}

describe("flagUnconfirmedDeliveries (DELIVERY_UNCONFIRMED_AFTER_MINUTES = 60)", () => {
  it("flags a Resend message with no confirmation after an hour, once", async () => {
    const { workspace } = await createTestWorkspace();
    const silent = await sentMessage(workspace.id, 61);
    const first = await flagUnconfirmedDeliveries({ provider: resend });
    expect(first.flagged).toBeGreaterThanOrEqual(1);
    const state = await readMessageState(silent);
    expect(state.codes).toEqual(["EMAIL_MESSAGE_SENT_PROVIDER_EVENT", "EMAIL_MESSAGE_DELIVERY_UNCONFIRMED"]);
    expect(state.events[1]).toMatchObject({
      message: "No delivery confirmation from Resend 60 minutes after sending.",
      providerEventId: UNCONFIRMED_EVENT_ID,
    });
    expect(state.message.deliveryUnconfirmedAt).toEqual(state.events[1].createdAt);
    expect(state.message.status).toBe("SUCCEEDED");

    expect(await flagUnconfirmedDeliveries({ provider: resend })).toEqual({ flagged: 0 });
    expect((await readMessageState(silent)).codes).toHaveLength(2);
  });

  it("leaves delivered, bounced, sandbox, recent and other providers' messages alone", async () => {
    const { workspace } = await createTestWorkspace();
    const untouched = [
      await sentMessage(workspace.id, 90, { then: "delivered" }),
      await sentMessage(workspace.id, 90, { then: "bounced" }),
      await sentMessage(workspace.id, 90, { sandbox: true }),
      await sentMessage(workspace.id, 30),
      await sentMessage(workspace.id, 90, { by: "smtp" }),
    ];
    await flagUnconfirmedDeliveries({ provider: resend });
    for (const id of untouched) {
      const state = await readMessageState(id);
      expect(state.codes).not.toContain("EMAIL_MESSAGE_DELIVERY_UNCONFIRMED");
      expect(state.message.deliveryUnconfirmedAt).toBeNull();
    }
  });

  it("does nothing for SMTP, whose relay never confirms delivery", async () => {
    const { workspace } = await createTestWorkspace();
    const id = await sentMessage(workspace.id, 120, { by: "smtp" });
    expect(await flagUnconfirmedDeliveries({ provider: smtp })).toEqual({ flagged: 0 });
    expect((await readMessageState(id)).message.deliveryUnconfirmedAt).toBeNull();
  });
});
