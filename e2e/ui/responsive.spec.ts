import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { docsScreenshot } from "../docs-screenshot";
import { basicAuth, E2E_BASE_URL, E2E_OWNER_STATE } from "../fixtures";

/*
 * Every dashboard page at a phone's width (390 px) and a laptop's (1366 px), in the light and the dark
 * colour scheme: the page never scrolls sideways (a wide table scrolls inside its own frame), every
 * table fits at 1366 px, dark mode paints a dark page with readable text, and below `lg` the sections
 * sit behind a working Menu button. The pages are listed from app/(dashboard), so a new page without
 * an example here fails the run instead of going unchecked.
 */

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
] as const;
const SCHEMES = ["light", "dark"] as const;
const marker = `e2e-responsive-${Date.now()}`;
const auth = { Authorization: basicAuth() };

/** Route patterns of the signed-in pages, e.g. `/emails/[id]`, from the page files (route groups dropped). */
function dashboardRoutes(): string[] {
  const root = fileURLToPath(new URL("../../app/(dashboard)", import.meta.url));
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((file) =>
    /(^|\/)page\.tsx$/.test(file),
  );
  const routes = files.map((file) =>
    `/${file}`
      .replace(/\/page\.tsx$/, "")
      .replace(/\/\([^)]+\)/g, "")
      .replace(/^$/, "/"),
  );
  return routes.sort();
}

async function post<T>(request: APIRequestContext, path: string, data?: unknown): Promise<T> {
  const response = await request.post(path, { headers: auth, data });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return ((await response.json()) as { data: T }).data;
}

async function first<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path, { headers: auth });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  const items = ((await response.json()) as { data: T[] }).data;
  expect(items.length, path).toBeGreaterThan(0);
  return items[0];
}

/**
 * An inbound mail and its thread: the message page's "Simulate a reply" hands a reply to the server's inbound listener
 * (the API cannot write inbound mail; only the MX path does).
 */
async function inboundExamples(browser: Browser, messageId: string): Promise<Record<string, string>> {
  const context = await browser.newContext({ baseURL: E2E_BASE_URL, storageState: E2E_OWNER_STATE });
  const page = await context.newPage();
  await page.goto(`/emails/${messageId}`);
  await page.getByRole("button", { name: "Simulate a reply" }).click();
  const inboundId = (await page.getByTestId("simulate-reply-result").getByRole("link").first().textContent())!.trim();
  await page.goto(`/inbound/${inboundId}`);
  const thread = (await page.getByTestId("thread-link").getAttribute("href"))!;
  await context.close();
  return { "/inbound/[id]": `/inbound/${inboundId}`, "/inbound/threads/[id]": thread };
}

/** One page per dynamic route, made through the API (the seeded demo has the template and the domain). */
async function examples(request: APIRequestContext, browser: Browser): Promise<Record<string, string>> {
  const template = await first<{ id: string }>(request, "/api/v1/templates");
  const domain = await first<{ id: string }>(request, "/api/v1/domains");
  const to = `${marker}-a-long-recipient-address@subdomain.example.org`;
  const message = await post<{ id: string }>(request, "/api/v1/email_messages", {
    from: "Demo <hello@example.com>",
    to,
    subject: `Responsive ${marker}`,
    bodyHtml: "<p>Hi</p>",
  });
  const batch = await post<{ id: string }>(request, "/api/v1/batches", {
    emailMessages: [1, 2].map((n) => ({ from: "hello@example.com", to, subject: `Batch ${n}`, bodyHtml: "<p>Hi</p>" })),
  });
  const contact = await first<{ id: string }>(request, "/api/v1/contacts");
  const group = await post<{ id: string }>(request, "/api/v1/unsubscribe_groups", {
    key: marker,
    name: "Product updates and newsletters",
  });
  // Loopback and plain HTTP are allowed in this run (playwright.config.ts); nothing listens there, which is fine.
  const endpoint = await post<{ id: string }>(request, "/api/v1/webhook_endpoints", {
    url: `http://127.0.0.1:9/${marker}/a-rather-long-path-for-the-layout-check`,
    eventTypes: ["email.delivered"],
  });
  const delivery = await post<{ deliveryId: string }>(request, `/api/v1/webhook_endpoints/${endpoint.id}/test`);
  // Off once it has a delivery to show, so later specs' messages do not queue failing deliveries to it.
  const disabled = await request.patch(`/api/v1/webhook_endpoints/${endpoint.id}`, {
    headers: auth,
    data: { enabled: false },
  });
  expect(disabled.status(), await disabled.text()).toBe(200);
  const workflow = await post<{ id: string }>(request, "/api/v1/workflows", {
    name: `Responsive ${marker}`,
    key: marker,
    steps: [{ type: "sendEmail", templateId: template.id, to: "{{ email }}" }],
  });
  const run = await post<{ id: string }>(request, "/api/v1/workflow_runs", {
    workflowKey: marker,
    variables: { email: to },
  });
  const inboundDomain = await post<{ id: string }>(request, "/api/v1/inbound_domains", {
    name: `in-${marker}.example.org`,
  });
  await post(request, "/api/v1/inbound_routes", {
    pattern: `a-rather-long-support-address+{hash}@in-${marker}.example.org`,
    actions: [{ type: "webhook" }, { type: "forward", to: `${marker}-desk@example.net` }],
  });
  return {
    ...(await inboundExamples(browser, message.id)),
    "/inbound/domains/[id]": `/inbound/domains/${inboundDomain.id}`,
    "/emails/[id]": `/emails/${message.id}`,
    "/batches/[id]": `/batches/${batch.id}`,
    "/contacts/[id]": `/contacts/${contact.id}`,
    "/domains/[id]": `/domains/${domain.id}`,
    "/groups/[id]": `/groups/${group.id}`,
    "/templates/[id]": `/templates/${template.id}`,
    "/templates/[id]/versions": `/templates/${template.id}/versions`,
    "/webhooks/[id]": `/webhooks/${endpoint.id}`,
    "/webhooks/[id]/deliveries/[deliveryId]": `/webhooks/${endpoint.id}/deliveries/${delivery.deliveryId}`,
    "/workflows/[id]": `/workflows/${workflow.id}`,
    "/workflow-runs/[id]": `/workflow-runs/${run.id}`,
  };
}

/** Sideways overflow of the page, and tables wider than their frame (they then scroll inside it). */
async function overflow(page: Page): Promise<{ page: number; tables: string[] }> {
  return page.evaluate(() => ({
    page: document.documentElement.scrollWidth - window.innerWidth,
    tables: [...document.querySelectorAll("table")]
      .filter((table) => table.scrollWidth > table.parentElement!.clientWidth + 1)
      .map(
        (table) => `${table.getAttribute("aria-label")}: ${table.scrollWidth} > ${table.parentElement!.clientWidth}`,
      ),
  }));
}

/** Relative luminance of the page background, and the contrast of the h1 against what it sits on (WCAG formulas). */
async function colours(page: Page): Promise<{ background: number; headingContrast: number }> {
  return page.evaluate(() => {
    const canvas = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const luminance = (css: string) => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = css;
      canvas.fillRect(0, 0, 1, 1);
      const [r, g, b] = [...canvas.getImageData(0, 0, 1, 1).data].map((c) => {
        const s = c / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const opaque = (css: string) => !/^rgba\(.*, 0\)$|^transparent$/.test(css) && !/\/ 0\)$/.test(css);
    const heading = document.querySelector("h1")!;
    let behind: Element | null = heading;
    while (behind && !opaque(getComputedStyle(behind).backgroundColor)) behind = behind.parentElement;
    const text = luminance(getComputedStyle(heading).color);
    const under = luminance(getComputedStyle(behind ?? document.body).backgroundColor);
    return {
      background: luminance(getComputedStyle(document.body).backgroundColor),
      headingContrast: (Math.max(text, under) + 0.05) / (Math.min(text, under) + 0.05),
    };
  });
}

/** Soft checks: one run lists every page that fails, not only the first. */
async function checkPage(page: Page, path: string, scheme: "light" | "dark", wide: boolean) {
  await page.goto(path);
  await expect(page.locator("h1").first(), path).toBeVisible();
  // Lists fill in from the client; give them a moment, without failing on a page that keeps polling.
  await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => {});
  const measured = await overflow(page);
  expect.soft(measured.page, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
  if (wide) expect.soft(measured.tables, `${path}: tables wider than their frame`).toEqual([]);
  const { background, headingContrast } = await colours(page);
  if (scheme === "dark") expect.soft(background, `${path}: page background in dark mode`).toBeLessThan(0.05);
  else expect.soft(background, `${path}: page background in light mode`).toBeGreaterThan(0.8);
  expect.soft(headingContrast, `${path}: heading contrast`).toBeGreaterThanOrEqual(7);
}

let pages: string[] = [];

test.beforeAll(async ({ request, browser }) => {
  const made = await examples(request, browser);
  const routes = dashboardRoutes();
  const missing = routes.filter((route) => route.includes("[") && !made[route]);
  expect(missing, "dashboard routes without an example page in this spec").toEqual([]);
  pages = routes.map((route) => made[route] ?? route);
});

for (const viewport of WIDTHS) {
  for (const scheme of SCHEMES) {
    test(`every dashboard page at ${viewport.width} px, ${scheme}`, async ({ page }) => {
      test.setTimeout(240_000);
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of pages) await checkPage(page, path, scheme, viewport.width > 1024);
      if (viewport.width > 1024) {
        // The API keys table fits: Status and the Revoke button are on screen, not scrolled away.
        await page.goto("/api-keys");
        const frame = page.getByRole("table", { name: "API keys" }).locator("..");
        const right = (await frame.boundingBox())!.x + (await frame.boundingBox())!.width;
        for (const cell of [
          page.getByRole("columnheader", { name: "Status" }),
          page.getByRole("button", { name: "Revoke" }),
        ]) {
          const box = (await cell.first().boundingBox())!;
          expect(box.x + box.width).toBeLessThanOrEqual(right);
        }
      }
      if (scheme === "dark" && viewport.width > 1024) {
        await page.goto(pages.find((path) => /^\/templates\/[^/]+$/.test(path) && path !== "/templates/new")!);
        // The preview (the email on white, its own colours) has rendered.
        await expect(page.getByText(/^Rendered in/)).toBeVisible();
        await docsScreenshot(page, "dark-template-studio");
      }
    });
  }
}

test("at 390 px the sections open from a Menu button, by keyboard too, and close on navigation", async ({ page }) => {
  await page.setViewportSize(WIDTHS[0]);
  await page.goto("/");
  const menu = page.getByRole("button", { name: "Menu" });
  const sections = page.getByRole("navigation", { name: "Sections" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(sections.getByRole("link", { name: "Settings" })).toBeHidden();

  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(sections.getByRole("link", { name: "Settings" })).toBeVisible();
  await docsScreenshot(page, "phone-menu");
  await page.keyboard.press("Tab");
  await expect(sections.getByRole("link").first()).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();

  await menu.click();
  await sections.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(sections).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  // From `lg` up there is no Menu button: the sidebar always shows the sections.
  await page.setViewportSize(WIDTHS[1]);
  await expect(menu).toBeHidden();
  await expect(sections.getByRole("link", { name: "Settings" })).toBeVisible();
});

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  // /setup is closed once the owner exists (a 404 page); the invitation and unsubscribe pages show their "not valid" cards.
  const PUBLIC = ["/login", "/login/check-email", "/setup", "/invite/not-a-real-token", "/u/not-a-real-token"];

  for (const viewport of WIDTHS) {
    for (const scheme of SCHEMES) {
      test(`the public pages at ${viewport.width} px, ${scheme}`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: scheme });
        for (const path of PUBLIC) await checkPage(page, path, scheme, true);
        if (scheme === "dark" && viewport.width === 390) {
          await page.goto("/login");
          await docsScreenshot(page, "dark-login-phone");
        }
      });
    }
  }
});
