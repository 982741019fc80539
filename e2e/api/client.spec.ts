import { createClient } from "@usewaypoint/client";
import { expect, test } from "@playwright/test";
import { E2E_API_PASSWORD, E2E_API_USERNAME, E2E_BASE_URL } from "../fixtures";

/**
 * The real @usewaypoint/client, unchanged, against this deployment: it reads MARKETBASE_API_HOST,
 * calls /v1/... (our rewrite to /api/v1) and sends Basic credentials in either of its two forms.
 */
test.beforeAll(() => {
  process.env.MARKETBASE_API_HOST = E2E_BASE_URL;
});

const email = {
  from: "Demo <hello@example.com>",
  to: "grace@example.org",
  subject: "From the real client",
  bodyHtml: "<p>Sent with @usewaypoint/client</p>",
};

test("createClient(username, password) sends live and sandbox email", async () => {
  const client = createClient(E2E_API_USERNAME, E2E_API_PASSWORD);
  const live = await client.emailMessages.createRaw(email);
  expect(live.status).toBe(201);
  expect(live.body.data).toMatchObject({ type: "EmailMessage", source: "API", to: ["grace@example.org"] });

  const sandbox = await client.sandboxEmailMessages.createRaw(email);
  expect(sandbox.status).toBe(201);
  expect(sandbox.body.data).toMatchObject({ source: "SANDBOX_API", status: "SUCCEEDED" });
});

test("createClient(value) takes the one-value Basic form, and a 4xx is an error", async () => {
  const client = createClient(Buffer.from(`${E2E_API_USERNAME}:${E2E_API_PASSWORD}`).toString("base64"));
  const sent = await client.emailMessages.createRaw({ ...email, metaId: "client-one-value" });
  expect(sent.status).toBe(201);

  const rejected = client.emailMessages.createRaw({ ...email, to: "not an address" });
  await expect(rejected).rejects.toMatchObject({
    response: { status: 400, data: { error: { code: "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR", param: "to" } } },
  });

  const wrongKey = createClient(E2E_API_USERNAME, "wrong-password-wrong-password-wrong");
  await expect(wrongKey.emailMessages.createRaw(email)).rejects.toMatchObject({ response: { status: 401 } });
});

test("createTemplated (live and sandbox) and templates.previewHtml with the seeded template", async ({ request }) => {
  const templates = await request.get("/api/v1/templates", {
    headers: { Authorization: `Basic ${Buffer.from(`${E2E_API_USERNAME}:${E2E_API_PASSWORD}`).toString("base64")}` },
  });
  expect(templates.status()).toBe(200);
  const templateId = (await templates.json()).data[0].id as string;
  const client = createClient(E2E_API_USERNAME, E2E_API_PASSWORD);

  const live = await client.emailMessages.createTemplated({
    templateId,
    to: "Ada <ada@example.org>",
    variables: { name: "Ada" },
  });
  expect(live.status).toBe(201);
  expect(live.body.data).toMatchObject({ source: "API", serviceTemplateId: templateId, variables: { name: "Ada" } });

  const sandbox = await client.sandboxEmailMessages.createTemplated({
    templateId,
    to: "bo@example.org",
    variables: { name: "Bo" },
  });
  expect(sandbox.body.data).toMatchObject({ source: "SANDBOX_API", status: "SUCCEEDED" });

  const preview = await client.templates.previewHtml(templateId, { name: "Grace" });
  expect(preview.status).toBe(200);
  expect(String(preview.body)).toContain("Grace");
});
