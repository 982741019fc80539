import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { basicAuth } from "../fixtures";
import { switchWorkspace } from "./workspace";
import { docsScreenshot } from "../docs-screenshot";

const auth = { Authorization: basicAuth() };

async function post(request: APIRequestContext, path: string, data: unknown) {
  const response = await request.post(`/api/v1${path}`, { headers: auth, data });
  return {
    status: response.status(),
    body: (await response.json()) as { data: { id: string; status?: string; emailMessageIds?: string[] } },
  };
}

async function shoot(page: Page, name: string) {
  await docsScreenshot(page, name);
}

test("overview, batches, workflow runs and activity show the workspace's API traffic; another workspace's ids are 404", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  const marker = `insights-${Date.now()}`;

  // Traffic through the API with the Demo key: a live batch, a sandbox send, a run of a missing workflow, a bad request.
  const message = (i: number) => ({
    from: "Demo <hello@example.com>",
    to: `reader${i}@example.org`,
    subject: `${marker} ${i}`,
    bodyHtml: `<p>${marker} ${i}</p>`,
  });
  const batch = await post(request, "/batches", { emailMessages: [message(0), message(1), message(2)] });
  expect(batch.status).toBe(201);
  const sandbox = await post(request, "/sandbox/email_messages", message(3));
  expect(sandbox.status).toBe(201);
  const run = await post(request, "/workflow_runs", { workflowKey: `missing-${marker}`, variables: { marker } });
  expect(run.status).toBe(201);
  expect(run.body.data.status).toBe("SKIPPED");
  const bad = await post(request, "/sandbox/email_messages", {
    from: "Demo <hello@example.com>",
    subject: marker,
    bodyHtml: "<p>no recipient</p>",
  });
  expect(bad.status).toBe(400);

  // The worker delivers the batch through the local provider.
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/v1/batches/${batch.body.data.id}`, { headers: auth });
        return ((await response.json()) as { data: { counts: Record<string, number> } }).data.counts.SUCCEEDED;
      },
      { timeout: 60_000 },
    )
    .toBe(3);

  // Overview: non-zero totals and a drawn chart.
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByTestId("tile-accepted")).not.toContainText(/^Accepted0$/);
  await expect
    .poll(async () =>
      Number((await page.getByTestId("tile-sent").locator("p").nth(1).textContent())?.replace(/,/g, "")),
    )
    .toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId("overview-chart").locator("svg.recharts-surface").first()).toBeVisible();
  await expect(page.getByTestId("overview-chart").locator(".recharts-line").first()).toBeAttached();
  await page.getByRole("button", { name: "sandbox" }).click();
  await expect(page.getByRole("button", { name: "sandbox" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "live" }).click();
  await shoot(page, "overview");

  // Batches: the list, then the batch with its counts and messages in request order.
  await page.goto("/batches");
  await expect(page.getByRole("heading", { level: 1, name: "Batches" })).toBeVisible();
  await shoot(page, "batches");
  await page.getByRole("link", { name: batch.body.data.id }).click();
  await expect(page).toHaveURL(`/batches/${batch.body.data.id}`);
  await expect(page.getByTestId("batch-counts")).toContainText("3");
  await expect(page.getByTestId("batch-counts")).toContainText("SUCCEEDED");
  const subjects = page.locator("#messages").getByRole("link", { name: new RegExp(marker) });
  await expect(subjects).toHaveText([`${marker} 0`, `${marker} 1`, `${marker} 2`]);
  await expect(page.getByText("1–3 of 3")).toBeVisible();
  await shoot(page, "batch-detail");
  await subjects.first().click();
  await expect(page).toHaveURL(`/emails/${batch.body.data.emailMessageIds![0]}`);

  // Workflow runs: the skipped run and why.
  await page.goto("/workflow-runs");
  await expect(page.getByRole("heading", { level: 1, name: "Workflow runs" })).toBeVisible();
  await shoot(page, "workflow-runs");
  await page.getByRole("link", { name: `missing-${marker}` }).click();
  await expect(page).toHaveURL(`/workflow-runs/${run.body.data.id}`);
  await expect(page.getByText("SKIPPED").first()).toBeVisible();
  await expect(page.getByTestId("run-reason")).toContainText(`missing-${marker}`);
  await expect(page.getByTestId("steps-done")).toHaveText("0 of 0");
  await expect(page.locator("#variables pre")).toContainText(marker);
  await shoot(page, "workflow-run-detail");

  // Activity: the requests, the errors-only and sandbox-only filters, and a row's bodies.
  await page.goto("/activity");
  await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
  const rows = page.getByTestId("activity-row");
  await expect(rows.filter({ hasText: "/api/v1/batches" }).first()).toBeVisible();
  await page.getByLabel("Errors only").check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/errors=1/);
  await expect(rows.first()).toContainText("/api/v1/sandbox/email_messages");
  await expect(rows.first()).toContainText("400");
  await expect(rows.filter({ hasText: "/api/v1/batches" })).toHaveCount(0);
  await page.getByLabel("Errors only").uncheck();
  await page.getByLabel("Sandbox only").check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/sandbox=1/);
  await expect(page).not.toHaveURL(/errors=1/);
  await expect(rows.filter({ hasText: "/api/v1/workflow_runs" })).toHaveCount(0);
  // The status beside its path: a bare "201" also matches a marker whose Date.now() digits hold "201".
  const opened = rows.filter({ hasText: /POST\s*\/api\/v1\/sandbox\/email_messages\s*201/ }).first();
  await expect(opened).toBeVisible();
  await opened.locator("summary").click();
  await expect(opened.getByLabel("Request body")).toContainText(`${marker} 3`);
  await expect(opened.getByLabel("Response body")).toContainText('"type": "EmailMessage"');
  await page.goto("/activity");
  await rows
    .filter({ hasText: /POST\s*\/api\/v1\/batches\s*201/ })
    .first()
    .locator("summary")
    .click();
  await shoot(page, "activity");

  // Phones: no page-wide sideways scrolling (tables scroll inside their frames).
  await page.setViewportSize({ width: 375, height: 800 });
  for (const path of [
    "/",
    "/batches",
    `/batches/${batch.body.data.id}`,
    "/workflow-runs",
    `/workflow-runs/${run.body.data.id}`,
    "/activity",
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
  }
  await page.setViewportSize({ width: 1440, height: 1000 });

  // Cross-tenant: the Demo batch and run are not found from Acme; then back to Demo.
  await switchWorkspace(page, "Acme");
  for (const path of [`/batches/${batch.body.data.id}`, `/workflow-runs/${run.body.data.id}`]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  }
  await page.goto("/activity");
  await expect(rows.filter({ hasText: marker })).toHaveCount(0);
  await page.goto("/");
  await switchWorkspace(page, "Demo");
});
