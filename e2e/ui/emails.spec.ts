import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { basicAuth } from "../fixtures";
import { switchWorkspace } from "./workspace";
import { docsScreenshot } from "../docs-screenshot";

// Everything this spec sends carries one marker (metaId and recipient), so other specs' data never matters.
const marker = `e2e-emails-${Date.now()}`;
const recipient = `${marker}@example.org`;

async function send(request: APIRequestContext, subject: string, options: { sandbox?: boolean } = {}): Promise<string> {
  const response = await request.post(options.sandbox ? "/api/v1/sandbox/email_messages" : "/api/v1/email_messages", {
    headers: { Authorization: basicAuth() },
    data: {
      from: "Demo <hello@example.com>",
      to: `Reader <${recipient}>`,
      subject,
      metaId: marker,
      bodyHtml: `<h1>${subject}</h1><p>Read <a href="https://example.org/guide">the guide</a>.</p>`,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function waitDelivered(request: APIRequestContext, id: string) {
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/v1/email_messages/${id}`, { headers: { Authorization: basicAuth() } });
        return ((await response.json()) as { data: { deliveredAt: string | null } }).data.deliveredAt !== null;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

async function noHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

const subjects = [1, 2, 3].map((n) => `Emails spec ${marker} #${n}`);
let ids: string[] = [];

test.beforeAll(async ({ request }) => {
  ids = [];
  for (const subject of subjects) ids.push(await send(request, subject));
  await send(request, `Emails spec ${marker} sandbox`, { sandbox: true });
  for (const id of ids) await waitDelivered(request, id);
});

test("filter the emails in the URL, by form and by status, and page through them", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  // Filter through the form: the URL carries it.
  await page.goto("/emails?limit=2");
  await page.getByLabel("Recipient").fill(recipient);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`to=${encodeURIComponent(recipient)}`));
  await expect(page).toHaveURL(/limit=2/);
  const rows = page.getByTestId("email-row");
  await expect(rows).toHaveCount(2);
  // Newest first: the sandbox message, then #3.
  await expect(rows.nth(0)).toContainText("sandbox");
  await expect(rows.nth(1)).toContainText(`${marker} #3`);

  // Live only, two a page: #3 and #2, then Older → #1, then Newer → back.
  await page.goto(`/emails?metaId=${marker}&mode=live&limit=2`);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(subjects[2]);
  await expect(rows.nth(1)).toContainText(subjects[1]);
  await docsScreenshot(page, "emails");
  await page.getByRole("link", { name: "Older →" }).click();
  await expect(page).toHaveURL(/cursor\.after=/);
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText(subjects[0]);
  await page.getByRole("link", { name: "← Newer" }).click();
  await expect(page).toHaveURL(/cursor\.before=/);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(subjects[2]);

  // By status: all three are delivered, none failed; the sandbox one alone in sandbox mode.
  await page.goto(`/emails?metaId=${marker}&status=SUCCEEDED&mode=live`);
  await expect(rows).toHaveCount(3);
  await expect(page.getByLabel("Status")).toHaveValue("SUCCEEDED");
  await page.goto(`/emails?metaId=${marker}&status=FAILED`);
  await expect(rows).toHaveCount(0);
  await expect(page.getByText("No emails match these filters")).toBeVisible();
  await page.goto(`/emails?metaId=${marker}&mode=sandbox`);
  await expect(rows).toHaveCount(1);

  // A bad value is explained next to its field, never a 500.
  const bad = await page.goto("/emails?status=LOST");
  expect(bad?.status()).toBe(200);
  await expect(page.locator("#filter-status-error")).toContainText("status must be one of");
  await page.goto("/emails?createdFrom=31-01-2026");
  await expect(page.locator("#filter-createdFrom-error")).toContainText("createdFrom must be a date");
  await expect(page.getByLabel("Created from")).toHaveAttribute("aria-invalid", "true");

  // Readable on a phone: the table scrolls inside its frame, the page does not.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/emails?metaId=${marker}`);
  await expect(rows).toHaveCount(4);
  await noHorizontalOverflow(page);
});

test("open a message: timeline, sandboxed preview at desktop and mobile widths, raw MIME", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(`/emails?metaId=${marker}&mode=live`);
  await page.getByRole("link", { name: subjects[0] }).click();
  await expect(page).toHaveURL(new RegExp(`/emails/${ids[0]}$`));
  await expect(page.getByRole("heading", { level: 1, name: subjects[0] })).toBeVisible();
  const timeline = page.getByRole("list", { name: "Timeline, newest first" });
  await expect(timeline.locator("li[data-code]").first()).toHaveAttribute(
    "data-code",
    "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
  );
  await expect(timeline.getByText("Delivered to the local inbox at")).toBeVisible();

  const frame = page.locator("iframe[title='HTML body of the message']");
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(
    page.frameLocator("iframe[title='HTML body of the message']").getByRole("heading", { name: subjects[0] }),
  ).toBeVisible();
  await page.getByRole("button", { name: /Mobile/ }).click();
  await expect(frame).toHaveAttribute("data-width", "mobile");
  await expect.poll(async () => Math.round((await frame.boundingBox())?.width ?? 0)).toBe(375);
  await page.getByRole("button", { name: "Desktop" }).click();
  await expect.poll(async () => (await frame.boundingBox())?.width ?? 0).toBeGreaterThan(600);

  // The raw MIME the local provider stored, collapsed until asked for.
  await page.getByText(/Show the raw message/).click();
  await expect(page.getByLabel("Raw MIME of the message")).toContainText(`Subject: ${subjects[0]}`);
  await frame.scrollIntoViewIfNeeded();
  await docsScreenshot(page, "email-detail");

  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await noHorizontalOverflow(page);
});

test("the Test addresses panel lists the simulator's addresses; a message to one says so and shows its outcome", async ({
  page,
  request,
}) => {
  await page.goto("/emails");
  const panel = page.getByTestId("simulator-addresses");
  await expect(panel.locator("li")).toHaveCount(7);
  for (const local of ["delivered", "bounced", "soft-bounced", "complained", "delayed", "opened", "clicked"]) {
    await expect(panel.getByText(`${local}@simulator.postwerk.test`, { exact: true })).toBeVisible();
    await expect(panel.getByRole("button", { name: `Copy ${local}@simulator.postwerk.test` })).toBeVisible();
  }

  const response = await request.post("/api/v1/email_messages", {
    headers: { Authorization: basicAuth() },
    data: {
      from: "Demo <hello@example.com>",
      to: `bounced+${marker}@simulator.postwerk.test`,
      subject: "Simulated bounce",
      bodyHtml: "<p>Hi</p>",
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const id = ((await response.json()) as { data: { id: string } }).data.id;
  await page.goto(`/emails/${id}`);
  await expect(page.getByTestId("simulator-note")).toContainText("Sent to the outcome simulator");
  const timeline = page.getByRole("list", { name: "Timeline, newest first" });
  await expect
    .poll(
      async () => {
        await page.reload();
        return timeline.locator("li[data-code]").first().getAttribute("data-code");
      },
      { timeout: 20_000 },
    )
    .toBe("EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT");
});

test("a message sent after the page loaded appears without a reload", async ({ page, request }) => {
  await page.goto(`/emails?metaId=${marker}&mode=live`);
  const rows = page.getByTestId("email-row");
  await expect(rows).toHaveCount(3);
  await page.evaluate(() => ((window as unknown as { stayedLoaded: boolean }).stayedLoaded = true));
  const subject = `Emails spec ${marker} late`;
  ids.push(await send(request, subject));
  const notice = page.getByTestId("new-messages");
  await expect(notice).toContainText("1 new message", { timeout: 20_000 });
  await notice.getByRole("button", { name: "Show" }).click();
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText(subject);
  await expect(notice).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { stayedLoaded?: boolean }).stayedLoaded)).toBe(true);
});

test("read the message in the local inbox", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto("/inbox");
  await expect(page.getByRole("heading", { level: 1, name: "Local inbox" })).toBeVisible();
  // The list's dates say their zone, like every other date of the dashboard.
  await expect(page.getByTestId("inbox-item").filter({ hasText: subjects[1] }).locator("time")).toHaveText(
    /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
  );
  await page.getByTestId("inbox-item").filter({ hasText: subjects[1] }).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`id=${ids[1]}`));
  await expect(page.getByRole("heading", { level: 2, name: subjects[1] })).toBeVisible();
  await expect(page.getByRole("article")).toContainText(`Reader <${recipient}>`);
  const frame = page.locator("iframe[title='Message in the local inbox']");
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(
    page.frameLocator("iframe[title='Message in the local inbox']").getByRole("link", { name: "the guide" }),
  ).toBeVisible();
  await page.getByText(/View source/).click();
  await expect(page.getByLabel("Raw MIME of the message")).toContainText(`Message-ID: <${ids[1]}@example.com>`);
  await frame.scrollIntoViewIfNeeded();
  await docsScreenshot(page, "inbox");

  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(page.getByRole("heading", { level: 2, name: subjects[1] })).toBeVisible();
  await noHorizontalOverflow(page);
});

/** Switch workspaces and wait until the server has stored the choice (the action redirects to /). */
test("another workspace sees none of it: 404 pages, nothing new", async ({ page }) => {
  await switchWorkspace(page, "Acme");
  try {
    expect((await page.goto(`/emails/${ids[0]}`))?.status()).toBe(404);
    expect((await page.goto(`/inbox?id=${ids[0]}`))?.status()).toBe(404);
    const latest = await page.request.get(`/emails/latest?metaId=${marker}`);
    expect(await latest.json()).toEqual({ data: { count: 0, more: false } });
    // Demo's message as the polling anchor counts nothing either.
    const anchored = await page.request.get(`/emails/latest?newest=${ids[0]}`);
    expect(await anchored.json()).toEqual({ data: { count: 0, more: false } });
    await page.goto(`/emails?metaId=${marker}`);
    await expect(page.getByText("No emails match these filters")).toBeVisible();
    await expect(page.getByTestId("email-row")).toHaveCount(0);
  } finally {
    await switchWorkspace(page, "Demo");
  }
});

test("search by subject, then resend a message from its page: the two pages link each other", async ({ page }) => {
  await page.goto("/emails");
  await page.getByLabel("Subject").fill(`${marker.toUpperCase()} #2`);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/subject=/);
  const rows = page.getByTestId("email-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(subjects[1]);

  await page.goto(`/emails/${ids[1]}`);
  await page.getByRole("button", { name: "Resend", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Resend" }).click();
  await expect(page.getByTestId("resent-from")).toContainText(ids[1]);
  const copyId = new URL(page.url()).pathname.split("/").pop()!;
  expect(copyId).not.toBe(ids[1]);
  await page.goto(`/emails/${ids[1]}`);
  await expect(page.getByTestId("resent-as")).toContainText(copyId);
});
