import { expect, test, type APIRequestContext } from "@playwright/test";
import { basicAuth, E2E_API_USERNAME } from "../fixtures";

const marker = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const sandboxSend = {
  from: "Demo <hello@example.com>",
  to: "ada@example.org",
  subject: `Management ${marker}`,
  bodyHtml: "<p>x</p>",
};

test.use({ viewport: { width: 1440, height: 900 } });

async function post(request: APIRequestContext, path: string, authorization: string, data: Record<string, unknown>) {
  const response = await request.post(path, { headers: { Authorization: authorization }, data });
  return {
    status: response.status(),
    body: (await response.json()) as {
      data?: Record<string, unknown> & { id: string };
      error?: { code: string; message: string };
    },
  };
}

test("management by API: a send-only key from the dashboard sends but may not add a domain (403); a full key provisions, and the Audit page names it", async ({
  page,
  request,
}) => {
  // The send-only key, made in the dashboard.
  await page.goto("/api-keys");
  await page.getByLabel("Key name").fill(`send-only ${marker}`);
  await page.getByTestId("scope-emails:send").check();
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-key-scopes")).toHaveText("emails:send");
  const username = (await page.getByTestId("new-key-username").textContent())!.trim();
  const password = (await page.getByTestId("new-key-password").textContent())!.trim();
  const sendOnly = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

  expect((await post(request, "/api/v1/sandbox/email_messages", sendOnly, sandboxSend)).status).toBe(201);
  const domainName = `mgmt-${marker}.test`;
  const refused = await post(request, "/api/v1/domains", sendOnly, { name: domainName });
  expect(refused.status).toBe(403);
  expect(refused.body.error).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("domains:write") });
  const noKeys = await post(request, "/api/v1/api_keys", sendOnly, { name: "escalate", scopes: ["emails:send"] });
  expect([noKeys.status, noKeys.body.error?.message]).toEqual([403, expect.stringContaining("keys:write")]);

  // The seeded full key provisions: a domain (its records come back) and another send-only key, which sends.
  const domain = await post(request, "/api/v1/domains", basicAuth(), { name: domainName });
  expect(domain.status, JSON.stringify(domain.body)).toBe(201);
  expect((domain.body.data!.records as Array<{ kind: string }>).map((record) => record.kind)).toEqual([
    "SPF",
    "DKIM",
    "DMARC",
  ]);
  const made = await post(request, "/api/v1/api_keys", basicAuth(), {
    name: `api sender ${marker}`,
    scopes: ["emails:send"],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const apiSender = `Basic ${Buffer.from(`${made.body.data!.id}:${made.body.data!.secret as string}`).toString("base64")}`;
  expect((await post(request, "/api/v1/sandbox/email_messages", apiSender, sandboxSend)).status).toBe(201);

  // The Audit page: the domain was added by the API key, the key created by it; the refused calls wrote nothing.
  await page.goto("/audit");
  await page.getByLabel("Target id").fill(domain.body.data!.id);
  await page.getByRole("button", { name: "Apply" }).click();
  const table = page.getByRole("table", { name: "Audit log" });
  await expect(table).toContainText("domain.add");
  await expect(table).toContainText("API key");
  await expect(table.getByRole("row")).toHaveCount(2); // the header and the one entry
  await page.goto("/audit");
  await page.getByLabel("Actor id").fill(E2E_API_USERNAME);
  await page.getByLabel("Action").fill("api_key.create");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(table).toContainText(`api sender ${marker}`);
  await page.goto("/audit");
  await page.getByLabel("Actor id").fill(username);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("No changes match these filters")).toBeVisible();
});
