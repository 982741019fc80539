import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { startWebhookReceiver, type WebhookReceiver } from "../../lib/testing/webhook-receiver";
import { basicAuth } from "../fixtures";
import { docsScreenshot } from "../docs-screenshot";
import { switchWorkspace } from "./workspace";

// A real receiver on loopback: playwright.config.ts lets the server deliver to it (WEBHOOKS_ALLOW_PRIVATE, WEBHOOKS_ALLOW_HTTP).
let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});
test.use({ viewport: { width: 1440, height: 900 } });

interface Payload {
  id: string;
  type: string;
  data: { message?: { id: string } };
}

async function sendLive(request: APIRequestContext, subject: string): Promise<string> {
  const response = await request.post("/api/v1/email_messages", {
    headers: { Authorization: basicAuth() },
    data: { from: "Demo <hello@example.com>", to: "ada@example.org", subject, bodyHtml: "<p>Hi</p>" },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** The requests the receiver got (those whose body contains `about`, if given), verified as a receiver would with the standard library (throws on a bad signature). */
function verified(secret: string, about?: string): Payload[] {
  return receiver.received
    .filter((entry) => !about || entry.body.includes(about))
    .map((entry) => new Webhook(secret).verify(entry.body, entry.headers) as Payload);
}

const rowsOf = (page: Page, type: string) =>
  page.getByTestId("delivery-row").and(page.locator(`[data-event-type="${type}"]`));

test("webhooks: create an endpoint, watch a message's deliveries, fail, retry, replay, rotate the secret", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const started = new Date(Date.now() - 60_000);

  // Create: the secret is shown once.
  await page.goto("/webhooks");
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await page.getByLabel("URL").fill(receiver.url);
  await page.getByLabel("Description").fill("Orders service");
  await page.getByRole("button", { name: "Create endpoint" }).click();
  const secret = (await page.getByTestId("new-endpoint-secret-value").textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await expect(page.getByRole("link", { name: receiver.url })).toBeVisible();
  await page.getByRole("link", { name: receiver.url }).click();
  await expect(page.getByRole("heading", { level: 1, name: receiver.url })).toBeVisible();
  const endpointUrl = page.url();

  // A live message: its events arrive signed, in order, and show in the log and on the message page.
  const first = await sendLive(request, "Webhook e2e one");
  await expect
    .poll(
      () =>
        verified(secret)
          .filter((p) => p.data.message?.id === first)
          .map((p) => p.type),
      { timeout: 30_000 },
    )
    .toEqual(["email.created", "email.sent", "email.delivered"]);
  await page.reload();
  await expect(rowsOf(page, "email.delivered").first()).toContainText("succeeded");
  await docsScreenshot(page, "webhook-endpoint");
  await page.goto(`/emails/${first}`);
  const onMessage = page.getByTestId("message-webhook-row");
  await expect(onMessage).toHaveCount(3);
  await expect(onMessage.first()).toContainText("succeeded");

  // The receiver fails: the next message's first event is retried (immediately, then 5 s later) and its later events wait.
  receiver.mode = "fail";
  const second = await sendLive(request, "Webhook e2e two");
  await page.goto(`${endpointUrl}?emailMessageId=${second}`);
  const retried = rowsOf(page, "email.created");
  // The log refreshes itself (every 3 s while a delivery is on its way): the retry 5 s after the first failure shows up.
  await expect(retried.getByTestId("delivery-attempts")).toHaveText("2", { timeout: 40_000 });
  await expect(retried.getByTestId("delivery-status")).toHaveText("retrying");
  await expect(retried.getByTestId("last-response")).toContainText("HTTP 500");
  await retried.getByRole("link").first().click();
  const deliveryUrl = page.url();
  await expect(page.getByTestId("attempt-row")).toHaveCount(2);
  await expect(page.getByTestId("attempt-status").first()).toHaveText("500");
  await expect(page.getByLabel("Webhook payload")).toContainText(second);
  await docsScreenshot(page, "webhook-delivery");

  // The receiver is back: replay everything that never arrived since the test began.
  receiver.mode = "ok";
  await page.goto(endpointUrl);
  const since = new Date(started.getTime() - started.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  await page.getByLabel("Since (your time zone)").fill(since);
  await page.getByRole("button", { name: "Replay" }).click();
  await expect(page.getByTestId("replay-result")).toContainText("queued again");
  await expect
    .poll(
      () => receiver.received.filter((entry) => entry.headers["webhook-id"] && entry.body.includes(second)).length,
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(3);
  const createdOfSecond = verified(secret).filter((p) => p.type === "email.created" && p.data.message?.id === second);
  expect(new Set(createdOfSecond.map((p) => p.id)).size).toBe(1); // the same event id each time: the receiver dedupes

  // Rotate: the new secret is shown once, and for 24 hours both secrets sign.
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Rotate" }).click();
  const rotated = (await page.getByTestId("rotated-secret-value").textContent())!.trim();
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(secret);
  const before = receiver.received.length;
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByTestId("test-result")).toContainText("Test event queued");
  // Other events (an open of an earlier message, say) may arrive around it: pick the test event by its type.
  const testEvent = () =>
    receiver.received
      .slice(before)
      .find((entry) => (JSON.parse(entry.body) as { type?: string }).type === "webhook.test");
  await expect.poll(() => testEvent() !== undefined, { timeout: 30_000 }).toBe(true);
  const testRequest = testEvent()!;
  expect((new Webhook(rotated).verify(testRequest.body, testRequest.headers) as Payload).type).toBe("webhook.test");
  expect((new Webhook(secret).verify(testRequest.body, testRequest.headers) as Payload).type).toBe("webhook.test");
  await page.reload();
  await expect(page.getByText("the previous secret also signs until")).toBeVisible();

  // Edit, disable (no delivery is made while disabled), enable again replaying what it missed meanwhile.
  await page.getByLabel("Description").fill("Orders service (v2)");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByTestId("enable-form")).toBeVisible();
  const missedWhileDisabled = await sendLive(request, "Webhook e2e three");
  await page.getByTestId("enable-replay").check();
  await page.getByLabel("Since (your time zone)").fill(since);
  await page.getByRole("button", { name: "Enable" }).click();
  await expect(page.getByTestId("enable-result")).toContainText("missed event");
  await expect
    .poll(
      () => verified(rotated, missedWhileDisabled).filter((p) => p.data.message?.id === missedWhileDisabled).length,
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);

  // The list shows the endpoint's state.
  await page.goto("/webhooks");
  await expect(page.getByRole("row", { name: new RegExp(receiver.url) })).toContainText("Enabled");
  await docsScreenshot(page, "webhooks");

  // Phones: no page-wide sideways scrolling.
  await page.setViewportSize({ width: 375, height: 800 });
  for (const path of ["/webhooks", endpointUrl, deliveryUrl, `/emails/${first}`]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Another workspace's endpoint and delivery are not found.
  await switchWorkspace(page, "Acme");
  for (const path of [endpointUrl, deliveryUrl]) expect((await page.goto(path))?.status(), path).toBe(404);
  await page.goto("/webhooks");
  await expect(page.getByText("No webhook endpoints yet")).toBeVisible();

  // Back in Demo: delete it (asks first); its page is gone.
  await switchWorkspace(page, "Demo");
  await page.goto(endpointUrl);
  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  expect((await page.goto(endpointUrl))?.status()).toBe(404);
});
