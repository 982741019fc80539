import { expect, test } from "@playwright/test";
import { basicAuth } from "../fixtures";
import { docsScreenshot } from "../docs-screenshot";

// Issue #30: a reply to a sent message comes back through the inbound listener (the server's own MX path), shows on
// the Inbound page with its stripped reply and the message it answers, and both sit in one thread.
const marker = `e2e-inbound-${Date.now()}`;

test.use({ viewport: { width: 1440, height: 900 } });

test("Simulate a reply: the reply is on the Inbound page, with its stripped text, its original and the thread", async ({
  page,
  request,
}) => {
  const subject = `Your order ${marker}`;
  const sent = await request.post("/api/v1/email_messages", {
    headers: { Authorization: basicAuth() },
    data: {
      from: "Demo <hello@example.com>",
      to: `ada-${marker}@example.org`,
      subject,
      bodyText: "Your order has shipped.\nReply to this message with any question.",
      bodyHtml: "<p>Your order has shipped.</p>",
      metadata: { orderId: marker },
    },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const { id } = ((await sent.json()) as { data: { id: string } }).data;

  await page.goto(`/emails/${id}`);
  const replies = page.locator("#replies");
  await expect(replies.getByTestId("no-replies")).toBeVisible();
  await replies.getByRole("button", { name: "Simulate a reply" }).click();
  const result = page.getByTestId("simulate-reply-result");
  await expect(result).toContainText("Reply received through the inbound listener");
  const inboundId = (await result.getByRole("link").first().textContent())!.trim();
  expect(inboundId).toMatch(/^inm_[0-9A-Za-z]{16}$/);

  // The Inbound list: the reply, its checks and the message it answers.
  await page.goto("/inbound");
  await expect(page.getByRole("heading", { level: 1, name: "Inbound" })).toBeVisible();
  const row = page.locator(`[data-testid="inbound-row"][data-id="${inboundId}"]`);
  await expect(row).toContainText(`Re: ${subject}`);
  await expect(row.getByTestId("inbound-status")).toHaveText("Received");
  await expect(row.getByTestId("verdict-spam")).toHaveText("spam not checked");
  await expect(row.getByTestId("reply-to-link")).toHaveText(`reply to ${id}`);
  await docsScreenshot(page, "inbound");

  // The message: the reply without the quote beside the whole text, and the original with its metadata.
  await row.getByRole("link", { name: `Re: ${subject}` }).click();
  await expect(page).toHaveURL(new RegExp(`/inbound/${inboundId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Re: ${subject}`);
  await expect(page.getByTestId("stripped-reply")).toHaveText("Thanks, that answers my question.");
  await expect(page.getByTestId("full-text")).toContainText("> Your order has shipped.");
  await expect(page.getByTestId("full-text")).toContainText("wrote:");
  const original = page.getByTestId("original-message");
  await expect(original.getByRole("link", { name: subject })).toHaveAttribute("href", `/emails/${id}`);
  await expect(original).toContainText(marker);
  await expect(page.getByTestId("check-spf")).toContainText("SPF");
  await docsScreenshot(page, "inbound-message");

  // The thread: what we sent, then the reply, each saying which way it went.
  await page.getByTestId("thread-link").click();
  await expect(page).toHaveURL(/\/inbound\/threads\/thr_[0-9A-Za-z]{16}$/);
  const items = page.getByTestId("thread-item");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toHaveAttribute("data-direction", "outbound");
  await expect(items.nth(0)).toHaveAttribute("data-id", id);
  await expect(items.nth(0)).toContainText("Sent");
  await expect(items.nth(1)).toHaveAttribute("data-direction", "inbound");
  await expect(items.nth(1)).toHaveAttribute("data-id", inboundId);
  await expect(items.nth(1)).toContainText("Thanks, that answers my question.");
  await docsScreenshot(page, "inbound-thread");

  // And the sent message's page lists its reply.
  await page.goto(`/emails/${id}`);
  await expect(replies.locator(`[data-testid="inbound-row"][data-id="${inboundId}"]`)).toBeVisible();
  await expect(replies.getByRole("link", { name: "Open the thread" })).toBeVisible();

  // Erasing the reply asks first, then leaves the envelope and its place in the thread.
  await page.goto(`/inbound/${inboundId}`);
  await page.getByRole("button", { name: "Erase" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Erase content" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("(content removed)");
  await expect(page.getByTestId("stripped-reply")).toHaveCount(0);
  await expect(page.getByTestId("thread-link")).toBeVisible();
  await expect(page.getByRole("button", { name: "Erase" })).toHaveCount(0);
});

test("Inbound filters: a filter is in the URL, a bad value names its field", async ({ page }) => {
  await page.goto("/inbound?status=QUARANTINED");
  await expect(page.getByLabel("Status")).toHaveValue("QUARANTINED");
  await page.goto("/inbound?createdFrom=yesterday");
  await expect(page.getByTestId("filter-error")).toContainText("createdFrom");
  await expect(page.locator("#inbound-filter-createdFrom-error")).toBeVisible();
});

test("Inbound domains and routes: add a domain, see its MX record, add a route, edit it, delete it", async ({
  page,
}) => {
  const domain = `in-${marker}.example.org`;
  await page.goto("/inbound/domains");
  await expect(page.getByRole("heading", { level: 1, name: "Inbound domains and routes" })).toBeVisible();
  await page.getByRole("textbox", { name: "Domain" }).fill(domain);
  await page.getByRole("button", { name: "Add inbound domain" }).click();
  await expect(page).toHaveURL(/\/inbound\/domains\/idom_[0-9A-Za-z]{16}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(domain);
  await expect(page.getByTestId("mx-record")).toContainText("MX 10");
  await expect(page.getByTestId("mx-value")).not.toBeEmpty();

  const add = page.getByRole("form", { name: "Add a route" });
  await add.getByLabel("Recipient pattern").fill(`support+{hash}@${domain}`);
  await add.getByLabel("Forward to").fill(`desk-${marker}@example.net`);
  await add.getByRole("button", { name: "Add route" }).click();
  const route = page.locator(`[data-testid="inbound-route"][data-pattern="support+{hash}@${domain}"]`);
  await expect(route).toContainText("store, email.received webhook, forward to");
  await expect(route).toContainText("address+anything");

  // A pattern on another domain is refused, naming the field.
  await add.getByLabel("Recipient pattern").fill(`support@elsewhere-${marker}.example.org`);
  await add.getByRole("button", { name: "Add route" }).click();
  await expect(add.locator(`#route-new-pattern-error`)).toBeVisible();
  await docsScreenshot(page, "inbound-domain");

  await route.getByText("Edit").click();
  const edit = route.getByRole("form", { name: `Edit route support+{hash}@${domain}` });
  await edit.getByLabel("Enabled").uncheck();
  await edit.getByRole("button", { name: "Save route" }).click();
  await expect(route).toContainText("disabled");

  await route.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(route).toHaveCount(0);

  await page.getByRole("button", { name: "Delete domain" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete domain" }).click();
  await expect(page).toHaveURL(/\/inbound\/domains$/);
  await expect(page.getByRole("link", { name: domain })).toHaveCount(0);
});
