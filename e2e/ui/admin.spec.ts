import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { startDnsServer, type TestDnsServer } from "../../lib/testing/dns-server";
import { basicAuth } from "../fixtures";
import { switchWorkspace } from "./workspace";
import { docsScreenshot } from "../docs-screenshot";

// playwright.config.ts points the server's DNS_SERVERS here.
const DNS_PORT = 5391;
const marker = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const screenshot = (page: Page, name: string) => docsScreenshot(page, name);

let dns: TestDnsServer;

test.beforeAll(async () => {
  dns = await startDnsServer({ port: DNS_PORT });
});
test.afterAll(async () => {
  await dns?.close();
});
test.use({ viewport: { width: 1440, height: 900 } });

async function sendLive(request: APIRequestContext, body: Record<string, unknown>) {
  const response = await request.post("/api/v1/email_messages", {
    headers: { Authorization: basicAuth() },
    data: { from: "Demo <hello@example.com>", bodyHtml: "<p>Hi</p>", ...body },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data;
}

/** The switcher's action sets the cookie and redirects to the overview: wait for that before relying on it. */
test("API keys: create, the secret shown once, use it, revoke it", async ({ page, request }) => {
  await page.goto("/api-keys");
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  const name = `e2e key ${marker}`;
  await page.getByLabel("Key name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const username = (await page.getByTestId("new-key-username").textContent())!.trim();
  const password = (await page.getByTestId("new-key-password").textContent())!.trim();
  expect(username).toMatch(/^key_[0-9A-Za-z]{16}$/);
  await expect(page.getByLabel("curl example", { exact: true })).toContainText(`-u '${username}:${password}'`);
  await expect(page.getByTestId(`api-key-${username}`)).toContainText(`${password.slice(0, 4)}…`);
  await screenshot(page, "api-keys");

  // What curl would do with the copied credentials.
  const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  const sent = await request.post("/api/v1/sandbox/email_messages", {
    headers: { Authorization: authorization },
    data: {
      from: "Demo <hello@example.com>",
      to: "ada@example.org",
      subject: `Key check ${marker}`,
      bodyHtml: "<p>x</p>",
    },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const { data } = (await sent.json()) as { data: { id: string } };
  expect(
    (await request.get(`/api/v1/email_messages/${data.id}`, { headers: { Authorization: authorization } })).status(),
  ).toBe(200);

  // Never shown again.
  await page.reload();
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  expect(await page.content()).not.toContain(password);
  const row = page.getByTestId(`api-key-${username}`);
  await expect(row).not.toContainText("never");

  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("Revoked");
  const refused = await request.get(`/api/v1/email_messages/${data.id}`, { headers: { Authorization: authorization } });
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
});

test("scoped key: a send-only key made in the dashboard sends, is refused a read (403 naming the scope), and the Audit log shows it", async ({
  page,
  request,
}) => {
  await page.goto("/api-keys");
  const name = `send-only ${marker}`;
  await page.getByLabel("Key name").fill(name);
  await page.getByTestId("scope-emails:send").check();
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-key-scopes")).toHaveText("emails:send");
  const username = (await page.getByTestId("new-key-username").textContent())!.trim();
  const password = (await page.getByTestId("new-key-password").textContent())!.trim();
  await expect(page.getByTestId(`api-key-${username}`).getByTestId("api-key-scopes")).toHaveText("emails:send");

  const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  const sent = await request.post("/api/v1/sandbox/email_messages", {
    headers: { Authorization: authorization },
    data: {
      from: "Demo <hello@example.com>",
      to: "ada@example.org",
      subject: `Scoped ${marker}`,
      bodyHtml: "<p>x</p>",
    },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const { data } = (await sent.json()) as { data: { id: string } };
  const refused = await request.get(`/api/v1/email_messages/${data.id}`, { headers: { Authorization: authorization } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({
    code: "FORBIDDEN",
    message: expect.stringContaining("emails:read"),
  });

  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await page.getByLabel("Target id").fill(username);
  await page.getByRole("button", { name: "Apply" }).click();
  const table = page.getByRole("table", { name: "Audit log" });
  await expect(table).toContainText("api_key.create");
  await expect(table).toContainText(`"${name}"`);
  await expect(table).toContainText('["emails:send"]');
  await screenshot(page, "audit-log");
});

test("domains: add, verify against DNS the test controls, and another workspace gets a 404", async ({ page }) => {
  const domain = `e2e-${marker}.test`;
  await page.goto("/domains");
  await page.getByLabel("Domain", { exact: true }).fill(domain);
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(page).toHaveURL(/\/domains\/dom_[0-9A-Za-z]{16}$/);
  const domainUrl = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { level: 1, name: domain })).toBeVisible();
  await expect(page.getByTestId("domain-status").first()).toHaveText("Pending");
  const text = async (testId: string) => (await page.getByTestId(testId).textContent())!.trim();
  // One v=spf1 record per domain: the page says to merge ours into an existing one.
  await expect(page.getByTestId("spf-merge")).toContainText("only one TXT record starting with v=spf1");
  await expect(page.getByTestId("spf-merge")).toContainText(`If ${domain} already has one`);

  // SPF published, DKIM not yet.
  dns.setTxt(await text("record-SPF-host"), [await text("record-SPF-value")]);
  await page.getByRole("button", { name: "Verify DNS records" }).click();
  await expect(page.getByTestId("verify-result")).toContainText("DKIM missing");
  await expect(page.getByTestId("record-SPF-outcome")).toHaveText("found");
  await expect(page.getByTestId("record-DKIM-outcome")).toHaveText("missing");
  await expect(page.getByTestId("domain-status").first()).toHaveText("Failed");

  dns.setTxt(await text("record-DKIM-host"), [await text("record-DKIM-value")]);
  await page.getByRole("button", { name: "Verify DNS records" }).click();
  await expect(page.getByTestId("record-DKIM-outcome")).toHaveText("found");
  await expect(page.getByTestId("domain-status").first()).toHaveText("Verified");
  await expect(page.getByTestId("verify-result")).toContainText("Verified");

  // The same check judges the sender requirements: SPF and DKIM pass, DMARC is not published yet.
  const requirement = (id: string) => page.getByTestId(`requirement-${id}`);
  await expect(page.getByRole("heading", { level: 2, name: "Sender requirements" })).toBeVisible();
  await expect(page.getByTestId("requirements-checked-at")).toBeVisible();
  await expect(requirement("spf").getByTestId("requirement-status")).toHaveText("Pass");
  await expect(requirement("dkim").getByTestId("requirement-status")).toHaveText("Pass");
  await expect(requirement("dmarc").getByTestId("requirement-status")).toHaveText("Fail");
  await expect(requirement("dmarc").getByTestId("requirement-fix")).toContainText(`_dmarc.${domain}`);
  await screenshot(page, "domain-detail");

  dns.setTxt(`_dmarc.${domain}`, ["v=DMARC1; p=none"]);
  await page.getByRole("button", { name: "Verify DNS records" }).click();
  await expect(requirement("dmarc").getByTestId("requirement-status")).toHaveText("Pass");
  await expect(requirement("dmarc").getByTestId("requirement-fix")).toHaveCount(0);
  await expect(requirement("dkim").getByTestId("requirement-status")).toHaveText("Pass");

  await page.goto("/domains");
  await expect(page.getByRole("row", { name: new RegExp(domain) })).toContainText("Verified");
  await screenshot(page, "domains");

  await switchWorkspace(page, "Acme");
  const response = await page.goto(domainUrl);
  expect(response?.status()).toBe(404);
  await page.goto("/domains");
  await expect(page.getByRole("link", { name: domain })).toHaveCount(0);
  await switchWorkspace(page, "Demo");
});

test("contacts: find a recipient, see its message, suppress and un-suppress it", async ({ page, request }) => {
  const email = `zoe-${marker}@example.org`;
  const subject = `Contact check ${marker}`;
  await sendLive(request, { to: `Zoe Unique <${email}>`, subject });

  await page.goto("/contacts");
  await page.getByLabel("Search contacts").fill(`zoe-${marker}`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`q=zoe-${marker}`));
  await expect(page.getByRole("table", { name: "Contacts" })).toContainText("Zoe Unique");
  await screenshot(page, "contacts");
  await page.getByRole("link", { name: email }).click();
  await expect(page.getByRole("heading", { level: 1, name: email })).toBeVisible();
  await expect(page.getByRole("link", { name: subject })).toBeVisible();
  await expect(page.getByTestId("contact-not-suppressed")).toBeVisible();

  await page.getByRole("button", { name: "Add to suppression list" }).click();
  await expect(page.getByTestId("contact-suppressed")).toContainText("Added by hand");
  await screenshot(page, "contact-detail");

  await page.goto(`/contacts/suppressions?q=${encodeURIComponent(email)}`);
  const row = page.getByTestId(`suppression-${email}`);
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove from list" }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText(`No suppressed address starts with “${email}”`)).toBeVisible();
});

test("unsubscribe groups: create, count messages, edit; the key locks once used", async ({ page, request }) => {
  const key = `e2e-${marker}`;
  await page.goto("/groups");
  await page.getByLabel("Name").fill(`Product news ${marker}`);
  await page.getByLabel("Key").fill(key);
  await page.getByRole("button", { name: "Create group" }).click();
  const row = page.getByTestId(`group-${key}`);
  await expect(row.getByTestId("message-count")).toHaveText("0");

  await sendLive(request, { to: `ada-${marker}@example.org`, subject: `Group check ${marker}`, groupKey: key });
  await page.reload();
  await expect(row.getByTestId("message-count")).toHaveText("1");
  await expect(row.getByTestId("unsubscribed-count")).toHaveText("0");
  await screenshot(page, "groups");

  await row.getByRole("link", { name: `Product news ${marker}` }).click();
  await expect(page.getByLabel("Key")).toHaveAttribute("readonly", "");
  await page.getByLabel("Name").fill(`Product updates ${marker}`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: `Product updates ${marker}` })).toBeVisible();
});
