import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { recordEvent } from "@/lib/records/timeline/record-event";
import { deliverDue, manualClock } from "@/lib/flows/webhooks/testing";
import { POST as create } from "./handlers";

// docs/webhooks.md#delivery (local receivers): WEBHOOKS_ALLOW_LOCAL alone lets a developer reach a receiver on their machine,
// and every refusal names all the settings that would lift it (one restart, not one per refusal).

const useWebhookSettings = (local?: string, http?: string, privateTargets?: string) =>
  useSettings({ WEBHOOKS_ALLOW_LOCAL: local, WEBHOOKS_ALLOW_HTTP: http, WEBHOOKS_ALLOW_PRIVATE: privateTargets });

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  useWebhookSettings();
});

describe("WEBHOOKS_ALLOW_LOCAL", () => {
  it("alone lets a real receiver on 127.0.0.1 (and localhost) over plain http get its deliveries", async () => {
    useWebhookSettings("true");
    const ws = await createTestWorkspace();
    for (const url of [receiver.url, receiver.url.replace("127.0.0.1", "localhost")]) {
      const made = await callRoute(create, "/api/v1/webhook_endpoints", {
        authorization: ws.authorization,
        body: { url },
      });
      expect([made.status, made.json.data.url], url).toEqual([201, url]);
    }
    const message = await insertTestMessage(ws.workspace.id);
    await recordEvent(await getDb(), {
      workspaceId: ws.workspace.id,
      messageId: message,
      code: "EMAIL_MESSAGE_CREATED",
      message: "Created.",
    });
    await deliverDue(ws.workspace.id, manualClock());
    const delivered = receiver.received.filter((request) => JSON.parse(request.body).data.message?.id === message);
    expect(delivered.map((request) => JSON.parse(request.body).type)).toEqual(["email.created", "email.created"]);
  });

  it("is what every refusal of a local target names, at once; metadata addresses stay refused with it", async () => {
    const ws = await createTestWorkspace();
    const refusal = async (url: string) => {
      const answer = await callRoute(create, "/api/v1/webhook_endpoints", {
        authorization: ws.authorization,
        body: { url },
      });
      expect([answer.status, answer.json.error.code, answer.json.error.param], url).toEqual([
        400,
        "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
        "url",
      ]);
      return answer.json.error.message as string;
    };
    useWebhookSettings();
    // http:// to a loopback address: one refusal, naming the one setting that allows both.
    expect(await refusal("http://127.0.0.1:8080/hook")).toBe(
      "url is refused: http:// to 127.0.0.1, a loopback, private or link-local address: set WEBHOOKS_ALLOW_LOCAL=true to allow local receivers (plain HTTP and private addresses, for development).",
    );
    expect(await refusal("http://localhost:8080/hook")).toMatch(
      /^url is refused: http:\/\/ to localhost \((127\.0\.0\.1|::1)\), a loopback, private or link-local address: set WEBHOOKS_ALLOW_LOCAL=true /,
    );
    expect(await refusal("https://10.1.2.3/hook")).toBe(
      "url is refused: 10.1.2.3, a loopback, private or link-local address: set WEBHOOKS_ALLOW_LOCAL=true (or WEBHOOKS_ALLOW_PRIVATE=true) to allow local receivers.",
    );
    expect(await refusal("http://93.184.216.34/hook")).toBe(
      "url must use https://: it is http://; set WEBHOOKS_ALLOW_LOCAL=true (or WEBHOOKS_ALLOW_HTTP=true) to allow plain HTTP to local receivers.",
    );
    // One of the finer settings given: the refusal left names the rest.
    useWebhookSettings(undefined, "true");
    expect(await refusal("http://[::1]:8080/hook")).toBe(
      "url is refused: ::1, a loopback, private or link-local address: set WEBHOOKS_ALLOW_LOCAL=true (or WEBHOOKS_ALLOW_PRIVATE=true) to allow local receivers.",
    );
    useWebhookSettings(undefined, undefined, "true");
    expect(await refusal("http://192.168.1.1/hook")).toContain(
      "set WEBHOOKS_ALLOW_LOCAL=true (or WEBHOOKS_ALLOW_HTTP=true)",
    );
    useWebhookSettings("true");
    expect(await refusal("http://169.254.169.254/latest")).toBe(
      "url is refused: 169.254.169.254, a cloud metadata address.",
    );
  });
});
