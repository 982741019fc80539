import { afterEach, describe, expect, it } from "vitest";
import { firstSendBody } from "@/components/insights/first-send-curl.shared";
import type { DeliveryProvider } from "@/lib/delivery/provider";
import { TEST_SENDER } from "@/lib/foundation/addresses/test-sender.shared";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { callApi } from "@/lib/testing/http";
// Not a React hook: an alias, so the hooks lint rule leaves these calls in loops and helpers alone.
import { useSettings as applySettings } from "@/lib/testing/settings";

/** The test sender (docs/api.md#the-test-sender): any workspace, while nothing leaves the machine. */
const saved = { DELIVERY_PROVIDER: process.env.DELIVERY_PROVIDER, SMTP_URL: process.env.SMTP_URL };
// No worker runs here, so nothing is ever sent to this relay: the setting only has to be valid.
const realProvider = () => applySettings({ DELIVERY_PROVIDER: "smtp", SMTP_URL: "smtp://127.0.0.1:2" });
afterEach(() => applySettings(saved));

const message = (to: string, extra: Record<string, unknown> = {}) => ({
  from: TEST_SENDER,
  to,
  subject: "Hello from Postwerk",
  bodyHtml: "<p>It works.</p>",
  ...extra,
});

const post = (path: string, authorization: string, body: unknown) =>
  callApi(path, { method: "POST", authorization, body });

/** The 422's sentence says how to get a domain of one's own: the dashboard, the CLI, DOMAIN_VERIFICATION=off. */
function expectHowToAddADomain(text: string) {
  expect(text).toContain("postwerk.test is the test sender");
  expect(text).toContain("DELIVERY_PROVIDER=smtp");
  expect(text).toContain("Domains page");
  expect(text).toContain("npm run cli -- domain add --workspace <workspace> --name <domain> --verified");
  expect(text).toContain("DOMAIN_VERIFICATION=off");
}

describe("the test sender postwerk.test", () => {
  it("sends through the local provider to any address, and is delivered to the local inbox", async () => {
    applySettings({ DELIVERY_PROVIDER: "local" });
    const ws = await createTestWorkspace();
    const res = await post("/v1/email_messages", ws.authorization, message("Ada <ada@example.org>"));
    expect(res.status).toBe(201);
    expect(res.json.data.from).toBe(TEST_SENDER);
    await deliverMessage({ messageId: res.json.data.id, workspaceId: ws.workspace.id }, { attempt: 0 });
    const state = await readMessageState(res.json.data.id);
    expect(state.message.status).toBe("SUCCEEDED");
    expect(state.inbox[0].envelopeFrom).toBe("test@postwerk.test");
  });

  it("sends in the sandbox whatever the provider", async () => {
    realProvider();
    const ws = await createTestWorkspace();
    const res = await post("/v1/sandbox/email_messages", ws.authorization, message("ada@example.org"));
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ source: "SANDBOX_API", from: TEST_SENDER });
  });

  it("with a real provider: sends to simulator recipients, and a real recipient is a 422 naming from that says how to add a domain", async () => {
    realProvider();
    const ws = await createTestWorkspace();
    const simulated = await post("/v1/email_messages", ws.authorization, message("delivered@simulator.postwerk.test"));
    expect(simulated.status).toBe(201);

    const refused = await post(
      "/v1/email_messages",
      ws.authorization,
      message("delivered@simulator.postwerk.test", { to: "ada@example.org" }),
    );
    expect(refused.status).toBe(422);
    expect(refused.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_SENDER_ERROR", param: "from" });
    expectHowToAddADomain(refused.json.error.message);
  });

  it("with a real provider, judges each element of a batch by its own recipients", async () => {
    realProvider();
    const ws = await createTestWorkspace();
    // The same sender twice: the batch's shared lookups must not carry the first verdict over to the second.
    const res = await post("/v1/batches", ws.authorization, {
      emailMessages: [message("delivered@simulator.postwerk.test"), message("ada@example.org")],
    });
    expect(res.status).toBe(422);
    expect(res.json.error.details).toEqual([
      {
        index: 1,
        param: "emailMessages[1].from",
        code: "EMAIL_MESSAGE_INVALID_SENDER_ERROR",
        message: expect.any(String),
      },
    ]);
    expectHowToAddADomain(res.json.error.details[0].message);

    const simulated = await post("/v1/batches", ws.authorization, {
      emailMessages: [message("delivered@simulator.postwerk.test"), message("opened@simulator.postwerk.test")],
    });
    expect(simulated.status).toBe(201);
    const sandbox = await post("/v1/sandbox/batches", ws.authorization, {
      emailMessages: [message("ada@example.org")],
    });
    expect(sandbox.status).toBe(201);
  });

  it("refuses a live resend through a real provider of a message first accepted with the local one", async () => {
    applySettings({ DELIVERY_PROVIDER: "local" });
    const ws = await createTestWorkspace();
    const sent = await post("/v1/email_messages", ws.authorization, message("ada@example.org"));
    expect(sent.status).toBe(201);
    realProvider();
    const resent = await post(`/v1/email_messages/${sent.json.data.id}/resend`, ws.authorization, {});
    expect(resent.status).toBe(422);
    expect(resent.json.error.param).toBe("from");
    expectHowToAddADomain(resent.json.error.message);
  });

  it("fails at delivery when the provider changed to a real one since acceptance, and that provider is never called", async () => {
    applySettings({ DELIVERY_PROVIDER: "local" });
    const ws = await createTestWorkspace();
    const res = await post("/v1/email_messages", ws.authorization, message("ada@example.org"));
    expect(res.status).toBe(201);
    const calls: string[] = [];
    const relay: DeliveryProvider = {
      name: "smtp",
      description: "a relay",
      transactional: false,
      confirmsDelivery: false,
      async send(mail) {
        calls.push(mail.messageId);
        return { outcome: "accepted", referenceId: "<x@relay>" };
      },
    };
    await deliverMessage(
      { messageId: res.json.data.id, workspaceId: ws.workspace.id },
      { attempt: 0, provider: relay },
    );
    const state = await readMessageState(res.json.data.id);
    expect(calls).toEqual([]);
    expect(state.message.status).toBe("FAILED");
    const failure = state.events.find((event) => event.code === "EMAIL_MESSAGE_INVALID_SENDER_ERROR");
    expect(failure?.message).toContain("postwerk.test is the test sender");
  });

  it("the Overview's example body is accepted as is by a new workspace (test mode on) with each kind of provider", async () => {
    for (const provider of ["local", "smtp"] as const) {
      if (provider === "local") applySettings({ DELIVERY_PROVIDER: "local" });
      else realProvider();
      for (const testMode of [true, false]) {
        const ws = await createTestWorkspace({ testMode });
        const body = firstSendBody({ appUrl: "http://localhost:3000", deliveryProvider: provider, testMode });
        const res = await post("/v1/email_messages", ws.authorization, body);
        expect(res.status, `${provider}, test mode ${testMode}: ${JSON.stringify(res.json)}`).toBe(201);
      }
    }
  });

  it("cannot be added as a workspace's own domain, nor can a name under it", async () => {
    const ws = await createTestWorkspace();
    for (const name of ["postwerk.test", "Mail.Postwerk.Test", "simulator.postwerk.test"]) {
      const res = await post("/v1/domains", ws.authorization, { name });
      expect(res.status, name).toBe(400);
      expect(res.json.error.param).toBe("name");
      expect(res.json.error.message).toContain("is reserved");
    }
  });

  it("is what the refusal of another workspace's domain points to", async () => {
    const ws = await createTestWorkspace();
    const res = await post(
      "/v1/email_messages",
      ws.authorization,
      message("ada@example.org", { from: "a@elsewhere.org" }),
    );
    expect(res.status).toBe(422);
    expect(res.json.error.param).toBe("from");
    expect(res.json.error.message).toContain("elsewhere.org is not a domain of this workspace");
    expect(res.json.error.message).toContain("--verified");
    expect(res.json.error.message).toContain("test@postwerk.test");
  });
});
