import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { unsubscribeGroups, workflowRuns } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { listBuilderChoices } from "./list-builder-choices";
import { listDashboardWorkflows } from "./list-dashboard-workflows";
import { createWorkflowWorkspace } from "./testing";

const DAY = 86_400_000;

/** A run row written directly, so its age can be chosen. */
async function insertRun(workspaceId: string, workflowId: string | null, createdAt: Date, sandbox = false) {
  await (await getDb()).insert(workflowRuns).values({
    id: newId("workflowRun", createdAt),
    workspaceId,
    workflowId,
    workflowKey: null,
    sandbox,
    status: "COMPLETED",
    createdAt,
    updatedAt: createdAt,
  });
}

describe("listDashboardWorkflows", () => {
  it("lists the workspace's workflows by name with step count, runs in the last 30 days and the newest of them", async () => {
    const ws = await createWorkflowWorkspace();
    const other = await createWorkflowWorkspace();
    const send = { type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}" };
    const welcome = await ws.createWorkflow({
      name: "Welcome",
      key: "welcome",
      steps: [send, { type: "wait", seconds: 60 }, send],
    });
    const billing = await ws.createWorkflow({ name: "Billing", enabled: false, steps: [send] });
    const theirs = await other.createWorkflow({ name: "Another", steps: [{ ...send, templateId: other.template.id }] });
    const now = new Date();
    const newest = new Date(now.getTime() - 2 * DAY);
    await insertRun(ws.workspace.id, welcome.id, new Date(now.getTime() - 40 * DAY));
    await insertRun(ws.workspace.id, welcome.id, new Date(now.getTime() - 10 * DAY), true);
    await insertRun(ws.workspace.id, welcome.id, newest);
    await insertRun(ws.workspace.id, null, new Date(now.getTime() - DAY));
    await insertRun(other.workspace.id, theirs.id, newest);

    const list = await listDashboardWorkflows(ws.workspace.id, now);
    expect(list.map((workflow) => workflow.name)).toEqual(["Billing", "Welcome"]);
    expect(list[0]).toMatchObject({
      id: billing.id,
      key: null,
      enabled: false,
      stepCount: 1,
      recentRuns: 0,
      lastRunAt: null,
    });
    expect(list[1]).toMatchObject({
      id: welcome.id,
      key: "welcome",
      enabled: true,
      stepCount: 3,
      recentRuns: 2,
      lastRunAt: newest,
    });
    expect(list[1].updatedAt).toEqual(welcome.updatedAt);
    expect(await listDashboardWorkflows(other.workspace.id, now)).toMatchObject([{ id: theirs.id, recentRuns: 1 }]);
  });
});

describe("listBuilderChoices", () => {
  it("offers the workspace's templates with the variables each uses, and its unsubscribe groups; nothing of another workspace", async () => {
    const ws = await createWorkflowWorkspace();
    const other = await createWorkflowWorkspace();
    const receipt = await ws.createTemplate({
      name: "A receipt",
      subject: "Order {{ order.id }}",
      bodyHtml: "{% for item in order.items %}{{ item.name }}{% endfor %} {{ unsubscribeUrl }}",
      fromAddress: "{{ shop.name }} <shop@example.com>",
    });
    await (await getDb()).insert(unsubscribeGroups).values([
      { id: newId("group"), workspaceId: ws.workspace.id, key: "news", name: "News" },
      { id: newId("group"), workspaceId: other.workspace.id, key: "theirs", name: "Theirs" },
    ]);
    const choices = await listBuilderChoices(ws.workspace.id, [ws.template.id, other.template.id]);
    expect(choices.templates).toEqual([
      { id: receipt.id, name: "A receipt", variables: ["order.id", "order.items", "shop.name"] },
      { id: ws.template.id, name: "Welcome", variables: ["user.name"] },
    ]);
    expect(choices.templatesTruncated).toBe(false);
    expect(choices.groups).toEqual([{ key: "news", name: "News" }]);
  });
});
