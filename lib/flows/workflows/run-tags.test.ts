import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { callApi } from "@/lib/testing/http";
import { runWorkflowStep } from "./run-workflow-step";
import { createWorkflowWorkspace } from "./testing";

/** A trigger's tags go on every message of its run, the failed ones too (docs/api.md#tags). */
describe("workflow runs carry the trigger's tags", () => {
  it("stored on the run, answered, and given to each message the steps send", async () => {
    const ws = await createWorkflowWorkspace();
    const workflow = await ws.createWorkflow({
      steps: [
        { type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}" },
        { type: "sendEmail", templateId: ws.template.id, to: "{{ user.missing }}" },
      ],
    });
    const res = await callApi("/v1/workflow_runs", {
      authorization: ws.authorization,
      body: {
        workflowId: workflow.id,
        variables: { user: { email: "ann@example.org" } },
        tags: ["order:1", "order:1"],
      },
    });
    expect(res.status).toBe(201);
    expect(res.json.data.tags).toEqual(["order:1"]);
    const runId = res.json.data.id as string;
    await runWorkflowStep({ workspaceId: ws.workspace.id, runId, step: 0 });
    await runWorkflowStep({ workspaceId: ws.workspace.id, runId, step: 1 });
    const rows = await (
      await getDb()
    )
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.workflowRunId, runId))
      .orderBy(emailMessages.createdAt);
    expect(rows.map((row) => [row.status, row.tags])).toEqual([
      ["PENDING", ["order:1"]],
      ["FAILED", ["order:1"]],
    ]);
  });

  it("a bad tag is a 400 naming it, and no run is made", async () => {
    const ws = await createWorkflowWorkspace();
    const res = await callApi("/v1/sandbox/workflow_runs", {
      authorization: ws.authorization,
      body: { workflowKey: "any", tags: ["fine:1", "not a tag"] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param: "tags[1]" });
  });
});
