import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import { decryptSecret } from "@/lib/foundation/crypto/secret-box";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { deliverDue, manualClock } from "@/lib/flows/webhooks/testing";
import { GET as getDelivery } from "./[id]/deliveries/[deliveryId]/handlers";
import { GET as listDeliveries } from "./[id]/deliveries/handlers";
import { POST as replay } from "./[id]/replay/handlers";
import { POST as rotate } from "./[id]/rotate_secret/handlers";
import { DELETE as remove, GET as getOne, PATCH as patch } from "./[id]/handlers";
import { POST as sendTest } from "./[id]/test/handlers";
import { GET as list, POST as create } from "./handlers";

let receiver: WebhookReceiver;
beforeAll(async () => {
  useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true" });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  useSettings({ WEBHOOKS_ALLOW_PRIVATE: undefined, WEBHOOKS_ALLOW_HTTP: undefined });
});

describe("/v1/webhook_endpoints", () => {
  it("creates (secret shown once, stored encrypted), lists, reads, updates, tests, rotates, deletes", async () => {
    const ws = await createTestWorkspace();
    const auth = { authorization: ws.authorization };
    const made = await callRoute(create, "/api/v1/webhook_endpoints", {
      ...auth,
      body: { url: receiver.url, description: "orders", eventTypes: ["email.bounced", "email.bounced"] },
    });
    expect(made.status).toBe(201);
    const endpoint = made.json.data;
    expect(endpoint).toMatchObject({
      type: "WebhookEndpoint",
      url: receiver.url,
      description: "orders",
      eventTypes: ["email.bounced"],
      enabled: true,
      disabledReason: null,
      createdBy: expect.stringMatching(/^key_/),
    });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const [stored] = await (await getDb()).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(stored.secretEncrypted).not.toContain(endpoint.secret.slice(6));
    expect(decryptSecret(stored.secretEncrypted, "webhook-endpoint-secret")).toBe(endpoint.secret);
    const params = { id: endpoint.id };

    const listed = await callRoute(list, "/api/v1/webhook_endpoints", auth);
    expect(listed.json.data.map((row: { id: string }) => row.id)).toEqual([endpoint.id]);
    expect(listed.json.data[0].secret).toBeUndefined();
    expect(
      (await callRoute(getOne, `/api/v1/webhook_endpoints/${endpoint.id}`, { ...auth, params })).json.data.secret,
    ).toBeUndefined();

    const updated = await callRoute(patch, `/api/v1/webhook_endpoints/${endpoint.id}`, {
      ...auth,
      params,
      method: "PATCH",
      body: { eventTypes: null, enabled: false },
    });
    expect(updated.json.data).toMatchObject({ eventTypes: null, enabled: false });
    await callRoute(patch, `/api/v1/webhook_endpoints/${endpoint.id}`, {
      ...auth,
      params,
      method: "PATCH",
      body: { enabled: true },
    });

    const test = await callRoute(sendTest, `/api/v1/webhook_endpoints/${endpoint.id}/test`, {
      ...auth,
      params,
      method: "POST",
    });
    expect(test.status).toBe(200);
    await deliverDue(ws.workspace.id, manualClock());
    const testEvent = receiver.received.find((request) => request.headers["webhook-id"] === test.json.data.eventId)!;
    expect(new Webhook(endpoint.secret).verify(testEvent.body, testEvent.headers)).toMatchObject({
      type: "webhook.test",
    });
    const deliveries = await callRoute(
      listDeliveries,
      `/api/v1/webhook_endpoints/${endpoint.id}/deliveries?status=succeeded`,
      { ...auth, params },
    );
    expect(deliveries.json.data).toMatchObject([
      { type: "WebhookDelivery", eventType: "webhook.test", status: "succeeded", attempts: 1, lastStatus: 200 },
    ]);
    const detailParams = { id: endpoint.id, deliveryId: deliveries.json.data[0].id };
    const detail = await callRoute(getDelivery, "/x", { ...auth, params: detailParams });
    expect(detail.json.data).toMatchObject({
      id: detailParams.deliveryId,
      attemptLog: [{ type: "WebhookAttempt", attempt: 1, status: 200, responseBody: "thanks", error: null }],
      payload: { id: test.json.data.eventId, type: "webhook.test" },
    });
    const missing = await callRoute(getDelivery, "/x", {
      ...auth,
      params: { id: endpoint.id, deliveryId: "whdl_0000000000000000" },
    });
    expect([missing.status, missing.json.error.param]).toEqual([404, "deliveryId"]);

    const rotated = await callRoute(rotate, `/api/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, {
      ...auth,
      params,
      method: "POST",
    });
    expect(rotated.json.data.secret).toMatch(/^whsec_/);
    expect(rotated.json.data.secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.json.data.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    const message = await insertTestMessage(ws.workspace.id);
    await recordEvent(await getDb(), {
      workspaceId: ws.workspace.id,
      messageId: message,
      code: "EMAIL_MESSAGE_CREATED",
      message: "Created.",
    });
    const replayed = await callRoute(replay, `/api/v1/webhook_endpoints/${endpoint.id}/replay`, {
      ...auth,
      params,
      body: { since: new Date(Date.now() - 60_000).toISOString(), mode: "all" },
    });
    expect(replayed.json.data).toEqual({ replayed: 1, more: false });

    expect(
      (await callRoute(remove, `/api/v1/webhook_endpoints/${endpoint.id}`, { ...auth, params, method: "DELETE" })).json
        .data,
    ).toEqual({ id: endpoint.id, deleted: true });
    expect((await callRoute(getOne, `/api/v1/webhook_endpoints/${endpoint.id}`, { ...auth, params })).status).toBe(404);
  });

  it("refuses bad input with the envelope naming the field, and another workspace's endpoint is a 404; nothing is stored", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const auth = { authorization: ws.authorization };
    const post = (body: unknown) => callRoute(create, "/api/v1/webhook_endpoints", { ...auth, body });
    const cases: Array<[unknown, string]> = [
      [{}, "url"],
      [{ url: "not a url" }, "url"],
      [{ url: "ftp://example.com/x" }, "url"],
      [{ url: "https://user:pw@example.com/x" }, "url"],
      [{ url: receiver.url, eventTypes: ["email.nope"] }, "eventTypes[0]"],
      [{ url: receiver.url, eventTypes: [] }, "eventTypes"],
      [{ url: "https://169.254.169.254/latest" }, "url"],
      [{ url: "http://[fd00:ec2::254]/" }, "url"],
    ];
    for (const [body, param] of cases) {
      const answer = await post(body);
      expect([answer.status, answer.json.error.code, answer.json.error.param], JSON.stringify(body)).toEqual([
        400,
        "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
        param,
      ]);
    }
    expect(await (await getDb()).$count(webhookEndpoints, eq(webhookEndpoints.workspaceId, ws.workspace.id))).toBe(0);
    const foreign = await callRoute(create, "/api/v1/webhook_endpoints", {
      authorization: other.authorization,
      body: { url: receiver.url },
    });
    const params = { id: foreign.json.data.id };
    for (const [handler, method] of [
      [getOne, "GET"],
      [patch, "PATCH"],
      [remove, "DELETE"],
      [rotate, "POST"],
      [sendTest, "POST"],
    ] as const) {
      const answer = await callRoute(handler, `/api/v1/webhook_endpoints/${params.id}`, {
        ...auth,
        params,
        method,
        body: method === "PATCH" ? { enabled: false } : undefined,
      });
      expect([answer.status, answer.json.error.code], method).toEqual([404, "NOT_FOUND"]);
    }
    const badReplay = await callRoute(replay, "/x", {
      authorization: other.authorization,
      params,
      body: { since: "yesterday" },
    });
    expect([badReplay.status, badReplay.json.error.param]).toEqual([400, "since"]);
    const badFilter = await callRoute(listDeliveries, "/x?status=lost", { authorization: other.authorization, params });
    expect([badFilter.status, badFilter.json.error.param]).toEqual([400, "status"]);
  });

  it("SSRF: private, loopback and metadata targets are refused unless allowed; metadata even then; http needs WEBHOOKS_ALLOW_HTTP", async () => {
    const ws = await createTestWorkspace();
    const post = (url: string) =>
      callRoute(create, "/api/v1/webhook_endpoints", { authorization: ws.authorization, body: { url } });
    useSettings({ WEBHOOKS_ALLOW_PRIVATE: "false", WEBHOOKS_ALLOW_HTTP: "true" });
    try {
      for (const url of [
        "http://127.0.0.1:8080/",
        "http://10.1.2.3/",
        "http://192.168.1.1/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://localhost/",
        "http://169.254.10.10/",
        "http://172.16.0.1/",
      ]) {
        const answer = await post(url);
        expect([answer.status, answer.json.error.param], url).toEqual([400, "url"]);
        expect(answer.json.error.message).toMatch(/refused|resolve/);
      }
      useSettings({ WEBHOOKS_ALLOW_HTTP: "false" });
      expect((await post("http://93.184.216.34/")).json.error.message).toMatch(/https/);
      useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true" });
      expect((await post("http://169.254.169.254/")).status).toBe(400);
      expect((await post("http://[fd00:ec2::254]/")).status).toBe(400);
      expect((await post("http://127.0.0.1:8080/")).status).toBe(201);
    } finally {
      useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true" });
    }
  });
});

describe("POST /v1/webhook_endpoints/:id/replay with eventId (resend this event)", () => {
  it("resends one event, even one already delivered; an unknown or foreign event is a 404, both or neither of since/eventId a 400", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const auth = { authorization: ws.authorization };
    const made = await callRoute(create, "/api/v1/webhook_endpoints", { ...auth, body: { url: receiver.url } });
    const params = { id: made.json.data.id };
    const message = await insertTestMessage(ws.workspace.id);
    await recordEvent(await getDb(), {
      workspaceId: ws.workspace.id,
      messageId: message,
      code: "EMAIL_MESSAGE_CREATED",
      message: "Created.",
    });
    await deliverDue(ws.workspace.id, manualClock());
    const [first] = receiver.received.filter((request) => JSON.parse(request.body).data.message?.id === message);
    const eventId = first.headers["webhook-id"];
    const resent = await callRoute(replay, "/x", { ...auth, params, body: { eventId } });
    expect(resent.json.data).toEqual({ replayed: 1, more: false });
    await deliverDue(ws.workspace.id, manualClock());
    expect(receiver.received.filter((request) => request.headers["webhook-id"] === eventId)).toHaveLength(2);

    const foreignMessage = await insertTestMessage(other.workspace.id);
    await recordEvent(await getDb(), {
      workspaceId: other.workspace.id,
      messageId: foreignMessage,
      code: "EMAIL_MESSAGE_CREATED",
      message: "Created.",
    });
    const unknown = await callRoute(replay, "/x", { ...auth, params, body: { eventId: "evt_0000000000000000" } });
    expect([unknown.status, unknown.json.error.param]).toEqual([404, "eventId"]);
    for (const body of [{}, { eventId, since: new Date().toISOString() }, { eventId: "nope" }]) {
      const answer = await callRoute(replay, "/x", { ...auth, params, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
  });
});
