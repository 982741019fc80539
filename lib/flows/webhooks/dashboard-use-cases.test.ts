import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { userActor } from "@/lib/records/audit/actor";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { listMessageDeliveries } from "./list-message-deliveries";
import { createEndpoint, deleteEndpoint, rotateEndpointSecret, updateEndpoint } from "./manage-endpoints";
import { deliverDue, manualClock } from "./testing";

// What the dashboard's Webhooks page relies on beyond the API's tests: the audit trail of its changes
// (with the signed-in user as actor) and the message page's list of deliveries.

let receiver: WebhookReceiver;
beforeAll(async () => {
  useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true" });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  useSettings({ WEBHOOKS_ALLOW_PRIVATE: undefined, WEBHOOKS_ALLOW_HTTP: undefined });
});

const actor = userActor(
  { id: "usr_0000000000000001", email: "admin@example.org" },
  { ip: "203.0.113.9", userAgent: "test" },
);

describe("webhook endpoints in the dashboard", () => {
  it("audits create, update, rotate and delete with the user as actor, never the secret; an update that changes nothing writes no entry", async () => {
    const { workspace } = await createTestWorkspace();
    const { endpoint, secret } = await createEndpoint(
      workspace.id,
      { url: receiver.url, description: "orders" },
      actor,
    );
    expect(endpoint.createdBy).toBe(actor.id);
    await updateEndpoint(workspace.id, endpoint.id, { description: "orders v2", eventTypes: ["email.bounced"] }, actor);
    await updateEndpoint(workspace.id, endpoint.id, { description: "orders v2" }, actor);
    await rotateEndpointSecret(workspace.id, endpoint.id, actor);
    await deleteEndpoint(workspace.id, endpoint.id, actor);

    const db = await getDb();
    const entries = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.workspaceId, workspace.id), eq(auditEvents.targetId, endpoint.id)))
      .orderBy(asc(auditEvents.createdAt), asc(auditEvents.id));
    expect(entries.map((entry) => entry.action)).toEqual([
      "webhook_endpoint.create",
      "webhook_endpoint.update",
      "webhook_endpoint.rotate_secret",
      "webhook_endpoint.delete",
    ]);
    for (const entry of entries)
      expect(entry).toMatchObject({
        actorType: "USER",
        actorId: actor.id,
        actorLabel: "admin@example.org",
        ip: "203.0.113.9",
      });
    expect(entries[0].after).toMatchObject({
      url: receiver.url,
      description: "orders",
      eventTypes: null,
      enabled: true,
    });
    expect(entries[1].before).toEqual({ description: "orders", eventTypes: null });
    expect(entries[1].after).toEqual({ description: "orders v2", eventTypes: ["email.bounced"] });
    expect(entries[3].after).toBeNull();
    expect(JSON.stringify(entries)).not.toContain(secret);
  });

  it("lists a message's deliveries to every endpoint of its workspace, and nothing of another workspace", async () => {
    const { workspace } = await createTestWorkspace();
    const other = await createTestWorkspace();
    expect(await listMessageDeliveries(workspace.id, "em_0000000000000000")).toEqual({
      hasEndpoints: false,
      deliveries: [],
    });
    const a = await createEndpoint(workspace.id, { url: receiver.url, description: "a" }, actor);
    const b = await createEndpoint(workspace.id, { url: `${receiver.url}/b`, eventTypes: ["email.delivered"] }, actor);
    const message = await insertTestMessage(workspace.id);
    const db = await getDb();
    await recordEvent(db, {
      workspaceId: workspace.id,
      messageId: message,
      code: "EMAIL_MESSAGE_CREATED",
      message: "Created.",
    });
    await recordEvent(db, {
      workspaceId: workspace.id,
      messageId: message,
      code: "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
      message: "Delivered.",
    });
    await deliverDue(workspace.id, manualClock());

    const { hasEndpoints, deliveries } = await listMessageDeliveries(workspace.id, message);
    expect(hasEndpoints).toBe(true);
    // Newest event first; each row names its endpoint.
    expect(deliveries.map((d) => [d.eventType, d.endpoint.id, d.status, d.attempts, d.lastStatus])).toEqual(
      expect.arrayContaining([
        ["email.delivered", a.endpoint.id, "succeeded", 1, 200],
        ["email.delivered", b.endpoint.id, "succeeded", 1, 200],
        ["email.created", a.endpoint.id, "succeeded", 1, 200],
      ]),
    );
    expect(deliveries).toHaveLength(3);
    expect(deliveries[2].eventType).toBe("email.created");
    expect((await listMessageDeliveries(other.workspace.id, message)).deliveries).toEqual([]);
  });
});
