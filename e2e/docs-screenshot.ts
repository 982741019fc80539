import type { Page } from "@playwright/test";

/**
 * The screenshots docs/dashboard.md shows are taken by the e2e specs where each page is in the state
 * worth showing. A test run must not change tracked files, so they are written to
 * docs/screenshots/ only when asked (`npm run docs:screenshots`, which sets DOCS_SCREENSHOTS=1);
 * otherwise the page is still captured (it must render) and the image dropped.
 */
export async function docsScreenshot(page: Page, name: string): Promise<void> {
  const write = process.env.DOCS_SCREENSHOTS === "1";
  await page.screenshot({ path: write ? `docs/screenshots/${name}.png` : undefined, fullPage: true });
}
