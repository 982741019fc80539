import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { basicAuth } from "../fixtures";
import { switchWorkspace } from "./workspace";
import { docsScreenshot } from "../docs-screenshot";

// Everything here carries one marker (names, key, recipients): other specs share the e2e database.
const marker = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const key = `e2e.welcome.${marker}`;
const name = `Welcome series ${marker}`;
const recipient = `wf-${marker}@example.org`;
const screenshot = (page: Page, file: string) => docsScreenshot(page, file);

let workflowPath = "";
let liveRunId = "";

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1440, height: 1000 } });

async function trigger(request: APIRequestContext, variables: Record<string, unknown>) {
  const response = await request.post("/api/v1/workflow_runs", {
    headers: { Authorization: basicAuth() },
    data: { workflowKey: key, variables },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string; status: string; reason: string | null } }).data;
}

async function noHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** The run page, reloaded until step `index` (0-based) reaches `state` (the worker runs in the server). */
async function waitForStep(page: Page, runId: string, index: number, state: string) {
  await expect
    .poll(
      async () => {
        await page.goto(`/workflow-runs/${runId}`);
        return page.getByTestId("run-steps").locator("li").nth(index).innerText();
      },
      { timeout: 30_000 },
    )
    .toContain(state);
}

test("build a workflow with a wait; the server's validation names the step", async ({ page }) => {
  await switchWorkspace(page, "Demo");
  await page.goto("/workflows");
  await page.getByRole("link", { name: "New workflow" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "New workflow" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Key", { exact: true }).fill(key);

  const first = page.getByTestId("step-1");
  await first.getByLabel("Template", { exact: true }).selectOption({ label: "Welcome (demo)" });
  await first.getByLabel("To", { exact: true }).fill("{{ user.email }}");
  // The template editor spec may have added variables to the shared demo template: "name" must be among them.
  await expect(
    first
      .getByRole("list", { name: "Template variables" })
      .getByRole("listitem")
      .filter({ hasText: /^name$/ }),
  ).toHaveCount(1);
  await expect(first.getByRole("list", { name: "Address variables" })).toHaveText("user.email");
  await expect(first.getByRole("link", { name: "Open template" })).toHaveAttribute("href", /^\/templates\/tpl_/);

  await page.getByRole("button", { name: "+ Wait" }).click();
  const wait = page.getByTestId("step-2");
  // A new wait is "1 day", not "1 days".
  await expect(wait.getByLabel("Unit").locator("option:checked")).toHaveText("day");
  await wait.getByLabel("Wait for").fill("1");
  await wait.getByLabel("Unit").selectOption("hours");
  await page.getByRole("button", { name: "+ Send email" }).click();
  const third = page.getByTestId("step-3");
  await third.getByLabel("Template", { exact: true }).selectOption({ label: "Welcome (demo)" });
  await expect(page.getByRole("list", { name: "Variables this workflow needs" })).toHaveText(/user\.email\s*name/);

  // An empty `to` is refused by the server, next to that step's field; nothing is created.
  await page.getByRole("button", { name: "Create workflow" }).click();
  await expect(page.getByTestId("save-errors")).toContainText("Step 3, To: must not be empty");
  await expect(third.getByLabel("To", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(third.getByText("must not be empty")).toBeVisible();
  await expect(page).toHaveURL(/\/workflows\/new$/);

  // Reorder: move the wait down and back up again.
  await page.getByRole("button", { name: "Move step 2 down" }).click();
  await expect(page.getByTestId("step-3")).toHaveAttribute("aria-label", "Step 3: Wait");
  await page.getByRole("button", { name: "Move step 3 up" }).click();
  await expect(page.getByTestId("step-2")).toHaveAttribute("aria-label", "Step 2: Wait");

  await page.getByTestId("step-3").getByLabel("To", { exact: true }).fill("{{ user.email }}");
  await page.getByRole("button", { name: "Create workflow" }).click();
  await expect(page).toHaveURL(/\/workflows\/wf_[0-9A-Za-z]{16}\?created=1$/);
  workflowPath = new URL(page.url()).pathname;
  await expect(page.getByText("Created. Trigger it with its key")).toBeVisible();
  // The panel sits beside the steps on a wide screen and under them on a narrow one: named, not placed.
  await expect(page.getByText("Created. Trigger it with its key")).toContainText("in the Test run panel");
  await expect(page.getByRole("heading", { name: "Test run" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  await expect(page.getByTestId("step-2").getByLabel("Wait for")).toHaveValue("1");
  await expect(page.getByTestId("step-2").getByLabel("Unit")).toHaveValue("hours");
  await screenshot(page, "workflow-builder");
});

test("trigger it through the API: the run page shows step 1's message sent and the wait pending", async ({
  page,
  request,
}) => {
  const run = await trigger(request, { user: { email: recipient }, name: "Ada" });
  expect(run.status).toBe("RUNNING");
  liveRunId = run.id;
  await page.goto("/workflow-runs");
  await page.getByRole("row").filter({ hasText: run.id }).getByRole("link", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/workflow-runs/${run.id}$`));
  await waitForStep(page, run.id, 1, "waiting");
  const steps = page.getByTestId("run-steps").locator("li");
  await expect(steps.nth(0)).toContainText("done");
  await expect(steps.nth(2)).toContainText("pending");
  const messages = page.locator("#messages");
  // The subject is the demo template's, rendered with name "Ada" (the editor spec may have reworded it).
  await expect(messages.getByRole("link", { name: /\bAda\b/ })).toBeVisible();
  await expect(messages).toContainText(recipient);
  // Delivered by the local provider shortly after.
  await expect
    .poll(
      async () => {
        await page.reload();
        return messages.locator("tbody tr").first().innerText();
      },
      { timeout: 30_000 },
    )
    .toContain("SUCCEEDED");
  await screenshot(page, "workflow-run");
});

test("a sandbox test run from the builder, with sample variables", async ({ page }) => {
  await page.goto(workflowPath);
  const sample = page.getByLabel("Sample variables (JSON)");
  // Pre-filled with a skeleton of what the workflow needs.
  await expect(sample).toHaveValue(/"email": "test@example.org"/);
  await expect(sample).toHaveValue(/"name": ""/);
  const runButton = page.getByRole("button", { name: "Run as sandbox" });

  await sample.fill("{ user: }");
  await expect(page.locator("#test-run-variables-error")).toContainText("Not valid JSON");
  await expect(runButton).toBeDisabled();
  await sample.fill(JSON.stringify({ user: {} }));
  await expect(page.getByTestId("sample-missing")).toContainText("user.email, name");

  // Unsaved edits: the test run would not use them, so it waits for a save.
  await page.getByLabel("Name", { exact: true }).fill(`${name} (edited)`);
  await expect(runButton).toBeDisabled();
  await expect(page.getByText("Save your changes first")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await expect(runButton).toBeEnabled();

  const sandboxRecipient = `sandbox-${marker}@example.org`;
  await sample.fill(JSON.stringify({ user: { email: sandboxRecipient }, name: "Sandy" }));
  await runButton.click();
  await expect(page.getByText("Sandbox run started")).toBeVisible();
  await page.getByRole("link", { name: /^Open run wfr_/ }).click();
  await expect(page).toHaveURL(/\/workflow-runs\/wfr_/);
  const runId = new URL(page.url()).pathname.split("/").pop()!;
  await waitForStep(page, runId, 1, "waiting");
  await expect(page.getByText("sandbox", { exact: true }).first()).toBeVisible();
  await expect(page.locator("#messages")).toContainText(sandboxRecipient);
  await expect(page.locator("#messages")).toContainText("SANDBOX_WORKFLOW");
});

test("disable it (a trigger is SKIPPED), delete a workflow (runs are kept)", async ({ page, request }) => {
  // A second workflow to delete from the list.
  const throwaway = `Throwaway ${marker}`;
  await page.goto("/workflows/new");
  await page.getByLabel("Name", { exact: true }).fill(throwaway);
  await page.getByTestId("step-1").getByLabel("Template", { exact: true }).selectOption({ label: "Welcome (demo)" });
  await page.getByTestId("step-1").getByLabel("To", { exact: true }).fill("{{ user.email }}");
  await page.getByRole("button", { name: "Create workflow" }).click();
  await expect(page).toHaveURL(/\/workflows\/wf_/);

  await page.goto("/workflows");
  const row = page.getByTestId("workflow-row").filter({ hasText: name });
  await expect(row).toContainText("enabled");
  await expect(row.locator("td").nth(2)).toHaveText("3");
  await expect(row.locator("td").nth(3)).toHaveText("2");
  await row.getByRole("button", { name: `Disable ${name}` }).click();
  await expect(row).toContainText("disabled");
  await expect(row.getByRole("button", { name: `Enable ${name}` })).toBeVisible();
  await screenshot(page, "workflows-list");
  // Readable on a phone: the table scrolls inside its frame, the builder stacks.
  await page.setViewportSize({ width: 375, height: 812 });
  await noHorizontalOverflow(page);
  await page.goto(workflowPath);
  await expect(page.getByTestId("step-3")).toBeVisible();
  await noHorizontalOverflow(page);
  await page.setViewportSize({ width: 1440, height: 1000 });

  const skipped = await trigger(request, { user: { email: recipient } });
  expect(skipped.status).toBe("SKIPPED");
  expect(skipped.reason).toMatch(/is disabled; nothing was run/);
  await page.goto(`/workflow-runs/${skipped.id}`);
  await expect(page.getByTestId("run-reason")).toContainText("is disabled");

  await page.goto("/workflows");
  const doomed = page.getByTestId("workflow-row").filter({ hasText: throwaway });
  await doomed.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Its runs are kept");
  await dialog.getByRole("button", { name: "Delete workflow" }).click();
  await expect(page).toHaveURL(/\/workflows\?deleted=/);
  await expect(page.getByText(`Deleted the workflow “${throwaway}”`)).toBeVisible();
  await expect(page.getByTestId("workflow-row").filter({ hasText: throwaway })).toHaveCount(0);

  // The builder's own Delete: the live run of the main workflow is kept, under its key.
  await page.goto(workflowPath);
  await page.locator("#delete-workflow").getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete workflow" }).click();
  await expect(page).toHaveURL(/\/workflows\?deleted=/);
  expect((await page.goto(workflowPath))?.status()).toBe(404);
  await page.goto(`/workflow-runs/${liveRunId}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(key);
  await expect(page.getByTestId("run-steps").locator("li")).toHaveCount(3);
});
