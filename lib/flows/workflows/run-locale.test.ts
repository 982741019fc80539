import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, workflowRuns } from "@/db/schema";
import { callApi } from "@/lib/testing/http";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { createWorkflow } from "./create-workflow";
import { runWorkflowStep } from "./run-workflow-step";

// A sendEmail step's locale (docs/workflows.md): fixed, Liquid over the run's variables, "contact", or by default
// the run's variables.locale, else the contact's.
async function setUp() {
  const ws = await createTestWorkspace();
  const template = await ws.createTemplate({
    subject: "Hello",
    locales: {
      defaultLocale: "en",
      variants: [
        { locale: "fr", subject: "Bonjour" },
        { locale: "de", subject: "Hallo" },
      ],
    },
  });
  const step = (extra: Record<string, unknown> = {}) => ({
    type: "sendEmail",
    templateId: template.id,
    to: "{{ email }}",
    ...extra,
  });
  return { ws, step };
}

describe("a workflow step's locale", () => {
  it("fixed, from Liquid, from the run's variables.locale, or the contact's ('contact')", async () => {
    const { ws, step } = await setUp();
    // The contact's locale is fr, learnt from an API send.
    await callApi("/v1/email_messages", {
      authorization: ws.authorization,
      body: { from: "hello@example.com", to: "ada@example.org", subject: "x", bodyHtml: "<p>x</p>", locale: "fr" },
    });
    const workflow = await createWorkflow({
      workspaceId: ws.workspace.id,
      definition: {
        name: "Locales",
        steps: [
          step({ locale: "contact" }),
          step({ locale: "de-AT" }),
          step({ locale: "{{ lang }}" }),
          step(),
          step({ locale: "{{ missing }}" }),
        ],
      },
    });
    const res = await callApi("/v1/workflow_runs", {
      authorization: ws.authorization,
      body: { workflowId: workflow.id, variables: { email: "ada@example.org", lang: "en", locale: "de" } },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const runId = res.json.data.id as string;
    for (let index = 0; index < 5; index++) await runWorkflowStep({ workspaceId: ws.workspace.id, runId, step: index });
    const rows = await (
      await getDb()
    )
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.workflowRunId, runId))
      .orderBy(emailMessages.createdAt);
    expect(rows.map((row) => [row.subject, row.locale, row.requestedLocale])).toEqual([
      // "contact": the contact's fr, not the run's de.
      ["Bonjour", "fr", "fr"],
      ["Hallo", "de", "de-AT"],
      ["Hello", "en", "en"],
      // None on the step: the run's variables.locale.
      ["Hallo", "de", "de"],
      // Liquid rendering empty: the contact's, which the step before taught it (a locale named is learnt).
      ["Hallo", "de", "de"],
    ]);
  });

  it("refuses a malformed fixed locale on the step and in the run's variables (400 naming it, no run)", async () => {
    const { ws, step } = await setUp();
    const bad = await callApi("/v1/workflows", {
      authorization: ws.authorization,
      body: { name: "Bad", steps: [step({ locale: "not a tag" })] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe("steps[0].locale");
    const workflow = await createWorkflow({ workspaceId: ws.workspace.id, definition: { name: "W", steps: [step()] } });
    for (const locale of ["en--", 7]) {
      const run = await callApi("/v1/workflow_runs", {
        authorization: ws.authorization,
        body: { workflowId: workflow.id, variables: { email: "ada@example.org", locale } },
      });
      expect(run.status).toBe(400);
      expect(run.json.error.param).toBe("variables.locale");
    }
    const runs = await (await getDb()).select().from(workflowRuns).where(eq(workflowRuns.workflowId, workflow.id));
    expect(runs).toEqual([]);
  });
});
