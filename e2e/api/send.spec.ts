import { expect, test, type APIRequestContext } from "@playwright/test";
import { basicAuth } from "../fixtures";

const TIMELINE = [
  "EMAIL_MESSAGE_CREATED",
  "EMAIL_MESSAGE_RENDERED",
  "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
  "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
];

interface EmailMessage {
  id: string;
  type: string;
  status: string;
  source: string;
  deliveredAt: string | null;
}

async function sendRawEmail(request: APIRequestContext, subject: string): Promise<EmailMessage> {
  const response = await request.post("/api/v1/email_messages", {
    headers: { Authorization: basicAuth() },
    data: {
      from: "Demo <hello@example.com>",
      to: "Ada <ada@example.org>",
      subject,
      bodyHtml: `<h1>${subject}</h1><p>Read <a href="https://example.org/guide">the guide</a>.</p>`,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { data } = (await response.json()) as { data: EmailMessage };
  expect(data).toMatchObject({ type: "EmailMessage", source: "API" });
  expect(data.id).toMatch(/^em_[0-9A-Za-z]{16}$/);
  return data;
}

async function getEmail(request: APIRequestContext, id: string): Promise<EmailMessage> {
  const response = await request.get(`/api/v1/email_messages/${id}`, { headers: { Authorization: basicAuth() } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: EmailMessage }).data;
}

test("send through the API, then follow the message and its timeline in the dashboard", async ({
  page,
  request,
}, testInfo) => {
  const subject = `E2E hello ${Date.now()}`;
  const sent = await sendRawEmail(request, subject);

  // Delivery happens after the answer, from the queue: wait for the worker to send and deliver it.
  await expect
    .poll(
      async () => {
        const message = await getEmail(request, sent.id);
        return { status: message.status, delivered: message.deliveredAt !== null };
      },
      { timeout: 30_000 },
    )
    .toEqual({ status: "SUCCEEDED", delivered: true });

  // The message page: fields, status and the whole timeline.
  const response = await page.goto(`/emails/${sent.id}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: subject })).toBeVisible();
  await expect(page.getByText("SUCCEEDED").first()).toBeVisible();
  const timeline = page.getByRole("list", { name: "Timeline, newest first" });
  // The timeline speaks in words; the raw codes are one click away, under Developer details.
  for (const label of ["Accepted", "Rendered", "Sent", "Delivered"])
    await expect(timeline.getByText(label, { exact: true }).first()).toBeVisible();
  await page.getByText("Developer details", { exact: true }).click();
  const rawCodes = page.getByRole("list", { name: "Timeline codes" });
  for (const code of TIMELINE) await expect(rawCodes.getByText(code, { exact: true })).toBeVisible();
  // Newest first: the order on the page is the reverse of the order of events.
  const codes = await timeline
    .locator("li[data-code]")
    .evaluateAll((items) => items.map((item) => item.getAttribute("data-code")));
  expect(codes.filter((code) => TIMELINE.includes(code!))).toEqual([...TIMELINE].reverse());
  // The HTML is shown in a sandboxed frame with neither scripts nor same-origin access.
  const frame = page.locator("iframe[title='HTML body of the message']");
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(
    page.frameLocator("iframe[title='HTML body of the message']").getByRole("link", { name: "the guide" }),
  ).toBeVisible();
  // Chromium paints an off-screen frame lazily: bring it into view so the screenshot shows the mail.
  await frame.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("message.png"), fullPage: true });

  // The home page lists it; its subject links to the same page.
  await page.goto("/");
  const link = page.getByRole("link", { name: subject });
  await expect(link).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("home.png"), fullPage: true });
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/emails/${sent.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: subject })).toBeVisible();

  // Readable on a phone.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto("/");
  await expect(page.getByRole("link", { name: subject })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath("home-375.png"), fullPage: true });
});

test("signed out, pages lead to sign-in; the API keeps its own 401; unknown ids are 404", async ({
  browser,
  page,
  request,
}) => {
  const anonymous = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const signedOut = await anonymous.newPage();
  for (const path of ["/", "/emails/em_0000000000000000"]) {
    await signedOut.goto(path);
    await expect(signedOut).toHaveURL(/\/login$/);
  }
  await anonymous.close();
  // The API keeps its own 401 (the proxy does not run there).
  const api = await request.get("/api/v1/email_messages/em_0000000000000000", { headers: { Cookie: "" } });
  expect(api.status()).toBe(401);
  expect(api.headers()["www-authenticate"]).toBe('Basic realm="api"');

  // An id that does not exist (or is another workspace's) is a 404 for a signed-in user too.
  const missing = await page.goto("/emails/em_0000000000000000");
  expect(missing?.status()).toBe(404);
});
