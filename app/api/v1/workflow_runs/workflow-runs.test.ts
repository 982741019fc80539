import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { workflowRuns } from "@/db/schema";
import { callApi, callRoute } from "@/lib/testing/http";
import { createWorkflowWorkspace, stepJobsOf } from "@/lib/flows/workflows/testing";
import { POST as sandboxPost } from "../sandbox/workflow_runs/handlers";
import { GET as getRun } from "./[id]/handlers";
import { POST } from "./handlers";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function setup() {
  const ws = await createWorkflowWorkspace();
  const workflow = await ws.createWorkflow({
    key: "user.signed_up",
    steps: [{ type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}" }],
  });
  const trigger = (body: unknown, handler: unknown = POST) =>
    callRoute(handler, "/api/v1/workflow_runs", { authorization: ws.authorization, body });
  return { ...ws, workflow, trigger };
}

async function runsOf(workspaceId: string) {
  return (await getDb()).select().from(workflowRuns).where(eq(workflowRuns.workspaceId, workspaceId));
}

describe("POST /v1/workflow_runs", () => {
  it("by id: 201 with the WorkflowRun, RUNNING, and its first step job committed with it", async () => {
    const ws = await setup();
    const variables = { user: { email: "ann@example.org", name: "Ann" } };
    const res = await ws.trigger({ workflowId: ws.workflow.id, variables });
    expect(res.status).toBe(201);
    const run = res.json.data;
    expect(run).toEqual({
      id: expect.stringMatching(/^wfr_[0-9A-Za-z]{16}$/),
      type: "WorkflowRun",
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      workflowId: ws.workflow.id,
      workflowKey: "user.signed_up",
      sandbox: false,
      status: "RUNNING",
      reason: null,
      variables,
      metaId: null,
      tags: [],
      emailMessageIds: [],
      completedAt: null,
    });
    expect(await stepJobsOf(run.id)).toMatchObject([{ step: 0, state: "created" }]);
  });

  it("by key: 201 naming the workflow; the sandbox twin marks the run sandbox", async () => {
    const ws = await setup();
    const res = await ws.trigger({ workflowKey: "user.signed_up", metaId: "order-7" });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      workflowId: ws.workflow.id,
      workflowKey: "user.signed_up",
      status: "RUNNING",
      variables: {},
      metaId: "order-7",
      sandbox: false,
    });
    const sandbox = await ws.trigger({ workflowKey: "user.signed_up" }, sandboxPost);
    expect(sandbox.status).toBe(201);
    expect(sandbox.json.data).toMatchObject({ workflowId: ws.workflow.id, sandbox: true, status: "RUNNING" });
  });

  it("a key that matches no workflow: 201 SKIPPED with a reason, no job", async () => {
    const ws = await setup();
    const res = await ws.trigger({ workflowKey: "not.there.yet", variables: { a: 1 } });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      workflowId: null,
      workflowKey: "not.there.yet",
      status: "SKIPPED",
      variables: { a: 1 },
    });
    expect(res.json.data.reason).toMatch(/No workflow has the key "not.there.yet"/);
    expect(await stepJobsOf(res.json.data.id)).toEqual([]);
  });

  it("a disabled workflow, by key or by id: 201 SKIPPED with a reason", async () => {
    const ws = await setup();
    const disabled = await ws.createWorkflow({
      name: "Paused",
      key: "paused",
      enabled: false,
      steps: [{ type: "sendEmail", templateId: ws.template.id, to: "a@example.org" }],
    });
    for (const body of [{ workflowKey: "paused" }, { workflowId: disabled.id }]) {
      const res = await ws.trigger(body);
      expect(res.status).toBe(201);
      expect(res.json.data).toMatchObject({ workflowId: disabled.id, workflowKey: "paused", status: "SKIPPED" });
      expect(res.json.data.reason).toBe(`The workflow "Paused" (${disabled.id}) is disabled; nothing was run.`);
      expect(await stepJobsOf(res.json.data.id)).toEqual([]);
    }
  });

  it("exactly one of workflowId and workflowKey, known fields typed: 400 naming the field, nothing created", async () => {
    const ws = await setup();
    const cases: Array<[unknown, string, string]> = [
      [{}, "workflowId", "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR"],
      [{ workflowId: null, variables: {} }, "workflowId", "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR"],
      [
        { workflowId: ws.workflow.id, workflowKey: "user.signed_up" },
        "workflowKey",
        "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      ],
      [{ workflowId: 42 }, "workflowId", "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR"],
      [{ workflowKey: "user.signed_up", variables: [1] }, "variables", "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR"],
      [{ workflowKey: "user.signed_up", metaId: "" }, "metaId", "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR"],
    ];
    for (const [body, param, code] of cases) {
      const res = await ws.trigger(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error).toMatchObject({ code, param });
    }
    const notObject = await callRoute(POST, "/api/v1/workflow_runs", {
      authorization: ws.authorization,
      rawBody: "[1]",
      headers: { "content-type": "application/json" },
    });
    expect(notObject.status).toBe(400);
    expect(await runsOf(ws.workspace.id)).toHaveLength(0);
  });

  it("an unknown workflowId, or another workspace's: 404 naming workflowId", async () => {
    const ws = await setup();
    const other = await setup();
    for (const workflowId of ["wf_0000000000000000", other.workflow.id]) {
      const res = await ws.trigger({ workflowId });
      expect(res.status).toBe(404);
      expect(res.json.error).toMatchObject({ code: "NOT_FOUND", param: "workflowId" });
    }
    // Another workspace's key is just a key this workspace does not have.
    expect((await ws.trigger({ workflowKey: "user.signed_up" })).json.data.workflowId).toBe(ws.workflow.id);
    expect(await runsOf(ws.workspace.id)).toHaveLength(1);
  });

  it("metaId: a replay answers 200 with the earlier run and Idempotent-Replayed; scope is per endpoint", async () => {
    const ws = await setup();
    const body = { workflowKey: "user.signed_up", metaId: "signup-1", variables: { user: { email: "a@example.org" } } };
    const first = await ws.trigger(body);
    const again = await ws.trigger({
      variables: { user: { email: "a@example.org" } },
      metaId: "signup-1",
      workflowKey: "user.signed_up",
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.data).toEqual(first.json.data);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // Same metaId, another body: a new run. Same body on the sandbox endpoint: a new run too.
    const different = await ws.trigger({ ...body, variables: { user: { email: "b@example.org" } } });
    expect(different.status).toBe(201);
    const sandbox = await ws.trigger(body, sandboxPost);
    expect(sandbox.status).toBe(201);
    expect(new Set([first.json.data.id, different.json.data.id, sandbox.json.data.id]).size).toBe(3);
    expect(await runsOf(ws.workspace.id)).toHaveLength(3);
    expect(await stepJobsOf(first.json.data.id)).toHaveLength(1);
  });

  it("two identical concurrent requests create one run (and one job)", async () => {
    const ws = await setup();
    const body = { workflowKey: "user.signed_up", metaId: "concurrent-1" };
    const results = await Promise.all([1, 2, 3, 4].map(() => ws.trigger(body)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.json.data.id)).size).toBe(1);
    expect(await runsOf(ws.workspace.id)).toHaveLength(1);
    expect(await stepJobsOf(results[0].json.data.id)).toHaveLength(1);
  });

  it("a lone surrogate in variables is stored as U+FFFD, not a 500 (found by fuzz-post.test.ts)", async () => {
    const ws = await setup();
    // JSON.stringify writes "\ud800" as that escape, which PostgreSQL's jsonb refuses.
    for (const [body, handler] of [
      [{ workflowKey: "no.such.key", variables: { user: { name: "\ud800" } } }, POST],
      [{ workflowId: ws.workflow.id, metaId: "lone-1", variables: { user: "a\udfffb", ok: "\u{1F600}" } }, sandboxPost],
    ] as const) {
      const res = await ws.trigger(body, handler);
      expect(res.status, res.text).toBe(201);
      expect((await ws.trigger(body, handler)).status).toBe(body.metaId ? 200 : 201);
    }
    const stored = (await runsOf(ws.workspace.id)).map((run) => run.variables);
    expect(stored).toContainEqual({ user: { name: "\uFFFD" } });
    expect(stored).toContainEqual({ user: "a\uFFFDb", ok: "\u{1F600}" });
  });

  it("answers 401 without valid credentials, live and sandbox", async () => {
    const ws = await setup();
    for (const [handler, path] of [
      [POST, "/api/v1/workflow_runs"],
      [sandboxPost, "/api/v1/sandbox/workflow_runs"],
    ] as const) {
      const res = await callRoute(handler, path, {
        authorization: "Basic bm9wZTpub3Bl",
        body: { workflowKey: "user.signed_up" },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="api"');
    }
    expect(await runsOf(ws.workspace.id)).toHaveLength(0);
  });

  it("GET /v1/workflow_runs answers 405 with Allow", async () => {
    const res = await callApi("/api/v1/workflow_runs", { method: "GET" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("GET /v1/workflow_runs/:id", () => {
  it("returns the run; another workspace's id and an unknown id are 404; no credentials 401", async () => {
    const ws = await setup();
    const other = await setup();
    const created = (await ws.trigger({ workflowKey: "user.signed_up", variables: { n: 1 } })).json.data;
    const get = (id: string, authorization: string | null = ws.authorization) =>
      callRoute(getRun, `/api/v1/workflow_runs/${id}`, { authorization, params: { id } });
    const res = await get(created.id);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual(created);
    for (const [id, authorization] of [
      [created.id, other.authorization],
      ["wfr_0000000000000000", ws.authorization],
    ]) {
      const missing = await get(id, authorization);
      expect(missing.status).toBe(404);
      expect(missing.json.error).toMatchObject({ code: "NOT_FOUND", param: "id" });
    }
    expect((await get(created.id, null)).status).toBe(401);
  });
});
