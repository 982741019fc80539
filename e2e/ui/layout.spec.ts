import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { basicAuth } from "../fixtures";

/*
 * Layout facts instead of screenshot baselines: pixels differ between machines and fonts, but "a
 * badge stays inside its cell" and "a phone never scrolls sideways" hold everywhere. A zone away from
 * UTC proves the dashboard's times are the reader's, not the server's.
 */
test.use({ timezoneId: "Europe/Berlin", locale: "en-GB" });

const marker = `e2e-layout-${Date.now()}`;
const auth = { Authorization: basicAuth() };
const message = (n: number) => ({
  from: "Demo <hello@example.com>",
  to: `layout-${n}@example.org`,
  subject: `Layout ${marker} ${n}`,
  metaId: marker,
  bodyHtml: "<p>Hi</p>",
});

async function sendDelivered(request: APIRequestContext): Promise<string> {
  const response = await request.post("/api/v1/email_messages", { headers: auth, data: message(0) });
  expect(response.status(), await response.text()).toBe(201);
  const id = ((await response.json()) as { data: { id: string } }).data.id;
  await expect
    .poll(
      async () => {
        const read = await request.get(`/api/v1/email_messages/${id}`, { headers: auth });
        return ((await read.json()) as { data: { deliveredAt: string | null } }).data.deliveredAt !== null;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return id;
}

/** Elements that spill out of their table cell where nothing between them and the cell clips them (a clip is a deliberate truncation). */
async function cellOverflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const clips = (element: Element) => getComputedStyle(element).overflowX !== "visible";
    for (const cell of document.querySelectorAll("td")) {
      const box = cell.getBoundingClientRect();
      for (const element of cell.querySelectorAll("*")) {
        const rect = element.getBoundingClientRect();
        if (rect.width === 0 && rect.height === 0) continue;
        let clipped = false;
        for (
          let parent = element.parentElement;
          parent && parent !== cell.parentElement;
          parent = parent.parentElement
        ) {
          if (clips(parent)) clipped = true;
        }
        if (clipped) continue;
        if (
          rect.left < box.left - 0.5 ||
          rect.right > box.right + 0.5 ||
          rect.top < box.top - 0.5 ||
          rect.bottom > box.bottom + 0.5
        ) {
          problems.push(
            `${element.tagName.toLowerCase()} "${element.textContent?.trim().slice(0, 40)}" overflows its cell`,
          );
        }
      }
    }
    return problems;
  });
}

/** Badges (status, source, event) must be whole inside their cells: a clipped badge is unreadable. */
async function clippedBadges(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("td span.ring-inset")].flatMap((badge) => {
      const cell = badge.closest("td")!.getBoundingClientRect();
      const rect = badge.getBoundingClientRect();
      const inside =
        rect.left >= cell.left - 0.5 &&
        rect.right <= cell.right + 0.5 &&
        rect.top >= cell.top - 0.5 &&
        rect.bottom <= cell.bottom + 0.5;
      return inside ? [] : [`badge "${badge.textContent}" is not inside its cell`];
    }),
  );
}

let id = "";

test.beforeAll(async ({ request }) => {
  id = await sendDelivered(request);
  // A sandbox batch: the longest source badge this spec can make through the API (SANDBOX_BATCH).
  const batch = await request.post("/api/v1/sandbox/batches", {
    headers: auth,
    data: { emailMessages: [message(1), message(2)] },
  });
  expect(batch.status(), await batch.text()).toBe(201);
});

for (const width of [1440, 375]) {
  test(`Overview, Emails and a message keep their layout at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ["/", `/emails?metaId=${marker}`, "/emails", `/emails/${id}`]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await cellOverflows(page), path).toEqual([]);
      expect(await clippedBadges(page), path).toEqual([]);
      if (width === 375)
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          path,
        ).toBeLessThanOrEqual(0);
    }
    await page.goto(`/emails?metaId=${marker}`);
    await expect(page.getByTestId("source-badge").filter({ hasText: "SANDBOX_BATCH" }).first()).toBeVisible();

    // The message page: the timeline in words, times in the reader's zone, the codes one click away.
    await page.goto(`/emails/${id}`);
    const timeline = page.getByRole("list", { name: "Timeline, newest first" });
    const labels = timeline.getByTestId("event-label");
    await expect(labels.first()).toBeVisible();
    await expect(labels.first()).toHaveText("Delivered");
    await expect(labels).toContainText(["Delivered", "Sent", "Rendered", "Accepted"]);
    await expect(timeline).not.toContainText("EMAIL_MESSAGE_");
    const time = timeline.locator("time").first();
    await expect(time).toHaveAttribute("title", /UTC$/);
    await expect(time).toHaveText(/CES?T|GMT\+[12]/);
    await expect(page.getByTestId("developer-details")).not.toHaveAttribute("open");
    await page.getByText("Developer details").click();
    await expect(page.getByRole("list", { name: "Timeline codes" })).toContainText(
      "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
    );
    await expect(page.getByTestId("developer-details")).toContainText("serviceTemplateId");
    if (width === 375)
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
  });
}
