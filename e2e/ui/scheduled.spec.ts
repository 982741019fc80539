import { expect, test, type APIRequestContext } from "@playwright/test";
import { basicAuth } from "../fixtures";

// Issue #18: a scheduled message on the dashboard, rescheduled and then cancelled by an admin (the owner).
const marker = `e2e-scheduled-${Date.now()}`;

async function schedule(request: APIRequestContext, scheduledAt: string): Promise<string> {
  const response = await request.post("/api/v1/email_messages", {
    headers: { Authorization: basicAuth() },
    data: {
      from: "Demo <hello@example.com>",
      to: `${marker}@example.org`,
      subject: `Scheduled ${marker}`,
      bodyHtml: "<p>Tomorrow at 9</p>",
      scheduledAt,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function read(request: APIRequestContext, id: string) {
  const response = await request.get(`/api/v1/email_messages/${id}`, { headers: { Authorization: basicAuth() } });
  return ((await response.json()) as { data: { status: string; scheduledAt: string | null; sentAt: string | null } })
    .data;
}

test("an admin reschedules a scheduled message, then cancels it; it is never sent", async ({ page, request }) => {
  const first = new Date(Date.now() + 2 * 86_400_000);
  first.setUTCSeconds(0, 0);
  const id = await schedule(request, first.toISOString());

  // The Emails page's Scheduled filter lists it, with its time under the status.
  await page.goto("/emails");
  await page.getByLabel("Scheduled", { exact: true }).selectOption("true");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/scheduled=true/);
  const row = page.locator(`[data-testid="email-row"][data-id="${id}"]`);
  await expect(row.getByTestId("scheduled-at")).toBeVisible();

  await page.goto(`/emails/${id}`);
  await expect(page.getByTestId("scheduled-for")).toContainText("Scheduled for");
  // Three days ahead at 09:30 in the browser's zone; the page sends it as an instant.
  const local = await page.evaluate(() => {
    const at = new Date(Date.now() + 3 * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T09:30`;
  });
  const expected = await page.evaluate((value) => new Date(value).toISOString(), local);
  await page.getByLabel("New time (your time zone)").fill(local);
  await page.getByRole("button", { name: "Reschedule" }).click();
  await expect(page.getByTestId("schedule-result")).toContainText(`Rescheduled for ${expected}`);
  expect(await read(request, id)).toMatchObject({ status: "PENDING", scheduledAt: expected });
  await page.reload();
  await expect(page.locator("#timeline")).toContainText("Rescheduled");

  await page.getByRole("button", { name: "Cancel sending" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("It will never be sent");
  await dialog.getByRole("button", { name: "Cancel sending" }).click();
  await expect(page.getByTestId("schedule-result")).toContainText("Cancelled");
  expect(await read(request, id)).toMatchObject({ status: "CANCELLED", sentAt: null });
  await page.reload();
  await expect(page.getByTestId("schedule-controls")).toHaveCount(0);
  await expect(page.getByTestId("scheduled-for")).toContainText("Was scheduled for");
  await expect(page.getByText("CANCELLED").first()).toBeVisible();

  // The API agrees: a second cancel is refused, naming the state.
  const again = await request.post(`/api/v1/email_messages/${id}/cancel`, { headers: { Authorization: basicAuth() } });
  expect(again.status()).toBe(409);
  expect(((await again.json()) as { error: { message: string } }).error.message).toContain("CANCELLED");
});
