import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { createEndpoint } from "./manage-endpoints";
import { deliverDue, manualClock } from "./testing";
import { WebhookUnrecordedGate, webhookUnrecordedGate } from "./unrecorded-gate";

let receiver: WebhookReceiver;
beforeAll(async () => {
  useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true", WEBHOOK_MAX_UNRECORDED: "3" });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  useSettings({ WEBHOOKS_ALLOW_PRIVATE: undefined, WEBHOOKS_ALLOW_HTTP: undefined, WEBHOOK_MAX_UNRECORDED: undefined });
});

describe("the webhook kill window", () => {
  it("lets groups through in order while their slots are free, never more than the limit at once", async () => {
    const gate = new WebhookUnrecordedGate(5);
    const order: string[] = [];
    let release!: () => void;
    const first = gate.run(4, () => new Promise<void>((resolve) => (release = () => (order.push("a"), resolve()))));
    const second = gate.run(3, async () => void order.push("b"));
    const third = gate.run(1, async () => void order.push("c"));
    // A sleep, not a wait: what is tested is that neither "b" nor "c" starts while "a" holds its slots.
    await new Promise((resolve) => setTimeout(resolve, 10));
    // "c" would fit beside "a" but waits behind "b": groups go in arrival order.
    expect(order).toEqual([]);
    release();
    await Promise.all([first, second, third]);
    expect(order).toEqual(["a", "b", "c"]);
    expect(gate.stats()).toEqual({ unrecorded: 0, highest: 4 });
    await expect(gate.run(6, async () => undefined)).rejects.toThrow("exceeds");
  });

  it("sends and records at most WEBHOOK_MAX_UNRECORDED webhooks at a time per process, and delivers them all", async () => {
    const { workspace } = await createTestWorkspace();
    await createEndpoint(workspace.id, { url: receiver.url }, "key_test");
    const db = await getDb();
    for (let i = 0; i < 10; i++) {
      const message = await insertTestMessage(workspace.id);
      await recordEvent(db, {
        workspaceId: workspace.id,
        messageId: message,
        code: "EMAIL_MESSAGE_CREATED",
        message: "Created.",
      });
    }
    receiver.delayMs = 20;
    await deliverDue(workspace.id, manualClock());
    expect(new Set(receiver.received.map((request) => request.headers["webhook-id"])).size).toBe(10);
    expect(receiver.maxInFlight).toBeLessThanOrEqual(3);
    expect(webhookUnrecordedGate().stats()).toEqual({ unrecorded: 0, highest: 3 });
  });
});
