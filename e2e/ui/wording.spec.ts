import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import nodemailer from "nodemailer";
import { basicAuth, E2E_API_PASSWORD, E2E_API_USERNAME, E2E_OWNER, E2E_SMTP_PORT } from "../fixtures";

// Issue #29 item 10: what the dashboard says is words a person reads. Everything here carries one marker.
const marker = `e2e-wording-${Date.now()}`;

async function sendTo(request: APIRequestContext, to: string, subject: string): Promise<string> {
  const response = await request.post("/api/v1/email_messages", {
    headers: { Authorization: basicAuth() },
    data: { from: "Demo <hello@example.com>", to, subject, bodyHtml: "<p>Hi</p>" },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** Reloads until the message page's headline says `state` (the simulator reports a moment after the send). */
async function waitForState(page: Page, id: string, state: string) {
  await expect
    .poll(
      async () => {
        await page.goto(`/emails/${id}`);
        return page.getByTestId("delivery-state").first().getAttribute("data-state");
      },
      { timeout: 30_000 },
    )
    .toBe(state);
}

test("a bounced message says Bounced, in the list and on its page, with the API status beside it", async ({
  page,
  request,
}) => {
  const to = `bounced+${marker}@simulator.postwerk.test`;
  const id = await sendTo(request, to, `Bounce ${marker}`);
  await waitForState(page, id, "Bounced");
  const headline = page.getByTestId("delivery-state").first();
  await expect(headline).toHaveText("Bounced");
  await expect(headline).not.toContainText("SUCCEEDED");
  await expect(page.getByTestId("api-status").first()).toHaveText("API status SUCCEEDED");

  await page.goto(`/emails?to=${encodeURIComponent(to)}`);
  const row = page.locator(`[data-testid="email-row"][data-id="${id}"]`);
  await expect(row.getByTestId("delivery-state")).toHaveText("Bounced");
  await expect(row.getByTestId("api-status")).toHaveText("API status SUCCEEDED");
  await expect(page.getByRole("columnheader", { name: "Delivery" })).toBeVisible();
  await expect(page.getByLabel("API status")).toBeVisible();
});

test("a message submitted over SMTP says so, in the list and on its page", async ({ page }) => {
  const to = `smtp-${marker}@example.org`;
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: E2E_SMTP_PORT,
    secure: false,
    ignoreTLS: true,
    auth: { user: E2E_API_USERNAME, pass: E2E_API_PASSWORD },
  });
  const info = await transport.sendMail({
    from: "Demo <hello@example.com>",
    to,
    subject: `SMTP ${marker}`,
    text: "Hi",
  });
  transport.close();
  const id = /OK (em_[0-9A-Za-z]{16})/.exec(info.response)?.[1];
  expect(id, info.response).toBeDefined();

  await page.goto(`/emails/${id}`);
  await expect(page.getByTestId("message-door")).toHaveText("Sent over SMTP");
  await page.goto(`/emails?to=${encodeURIComponent(to)}`);
  await expect(page.locator(`[data-testid="email-row"][data-id="${id}"]`).getByTestId("message-door")).toHaveText(
    "over SMTP",
  );
});

test("a domain's page says what its last check found in words, and the audit log names who added it", async ({
  page,
}) => {
  const domain = `${marker}.test`;
  await page.goto("/domains");
  await page.getByLabel("Domain", { exact: true }).fill(domain);
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(page).toHaveURL(/\/domains\/dom_[0-9A-Za-z]{16}$/);
  const domainId = new URL(page.url()).pathname.split("/").at(-1)!;
  const status = page.locator("#status");
  await expect(status).toContainText("Verified");
  await expect(status).toContainText("Not verified");
  await expect(page.getByTestId("last-check-error")).toHaveText("Not checked yet.");
  for (const fieldName of ["verifiedAt", "lastCheckedAt", "lastCheckError"])
    await expect(status).not.toContainText(fieldName);

  // Nothing published: the check fails, and the page says so in a sentence.
  await page.getByRole("button", { name: "Verify DNS records" }).click();
  await expect(page.getByTestId("verify-result")).toBeVisible({ timeout: 20_000 });
  await page.reload();
  await expect(page.getByTestId("last-check-error")).toContainText("Last check failed: SPF");

  await page.goto(`/audit?targetId=${domainId}`);
  await expect(page.getByTestId("audit-actor").first()).toHaveText(`${E2E_OWNER.name} (${E2E_OWNER.email})`);
});

test("invalid sample data in the template studio says what is wrong, where", async ({ page }) => {
  // A template of its own: the newest one is another spec's, whose studio may still be settling.
  const created = await page.request.post("/v1/templates", {
    headers: { Authorization: basicAuth() },
    data: { name: `Sample data ${Date.now()}`, subject: "Hello {{ name }}", bodyHtml: "<p>Hello {{ name }}</p>" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { data } = (await created.json()) as { data: { id: string } };
  await page.goto(`/templates/${data.id}`);
  const editor = page.getByRole("textbox", { name: "Sample data (JSON)", exact: true });
  await editor.click();
  await expect(editor).toBeFocused();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText('{\n  "name": "Eve",\n  "plan" "Pro"\n}');
  const error = page.getByTestId("sample-data-error");
  await expect(error).toContainText("Line 3, column 10");
  await expect(error).toContainText('Expected ":" after the property name');
});
