import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { activityLogs } from "@/db/schema";
import { flushActivityLog } from "@/lib/records/activity/record-activity";
import { withStorageEnv } from "@/lib/domain/attachments/testing";
import { callRoute } from "@/lib/testing/http";
import { createWorkflowWorkspace } from "@/lib/flows/workflows/testing";
import { POST as createAttachment } from "./attachments/handlers";
import { POST as sendBatch } from "./batches/handlers";
import { POST as sendEmail } from "./email_messages/handlers";
import { POST as sandboxSend } from "./sandbox/email_messages/handlers";
import { POST as preview } from "./templates/[id]/preview/handlers";
import { POST as render } from "./templates/[id]/render/handlers";
import { POST as triggerRun } from "./workflow_runs/handlers";

withStorageEnv();

// Attacks found against a running instance: each answered 500 before the body was checked at the edge.
const NUL = "\u0000";
const raw = { from: "hello@example.com", to: "ann@example.org", subject: "Hi", bodyHtml: "<p>Hello</p>" };

/** `depth` objects nested inside one another, a string at the bottom, as JSON text (JSON.stringify would overflow). */
const nested = (depth: number) => '{"a":'.repeat(depth) + '"x"' + "}".repeat(depth);
/** A JSON object's text with `field` set to the raw JSON text `value`. */
const withRaw = (body: object, field: string, value: string) =>
  JSON.stringify(body).replace(/}$/, `,"${field}":${value}}`);

async function setup() {
  const ws = await createWorkflowWorkspace();
  const workflow = await ws.createWorkflow({
    key: "user.signed_up",
    steps: [{ type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}" }],
  });
  const post = (handler: unknown, path: string, body: unknown, params?: Record<string, string>) =>
    callRoute(handler, path, { authorization: ws.authorization, body, params });
  const postRaw = (handler: unknown, path: string, rawBody: string, params?: Record<string, string>) =>
    callRoute(handler, path, {
      authorization: ws.authorization,
      rawBody,
      params,
      method: "POST",
      headers: { "content-type": "application/json" },
    });
  return { ...ws, workflow, post, postRaw };
}

function expectRefused(
  res: { status: number; json: { error?: { code: string; param?: string; message: string } } },
  param: string,
) {
  expect(res.status).toBe(400);
  expect(res.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param });
  expect(res.json.error?.message).not.toContain(NUL);
}

describe("a NUL character anywhere in a JSON body", () => {
  it("is refused with 400 naming its path, on sends, in values and in keys", async () => {
    const ws = await setup();
    const send = (body: unknown) => ws.post(sendEmail, "/api/v1/email_messages", body);
    const cases: Array<[unknown, string]> = [
      [{ ...raw, subject: `a${NUL}b` }, "subject"],
      [{ ...raw, bodyText: NUL }, "bodyText"],
      [{ ...raw, metadata: { order: `1${NUL}` } }, "metadata.order"],
      [{ ...raw, metaId: `m${NUL}` }, "metaId"],
      [{ ...raw, groupKey: NUL }, "groupKey"],
      [{ to: "ann@example.org", templateId: `tpl_${NUL}`, variables: {} }, "templateId"],
      [
        { to: "ann@example.org", templateId: ws.template.id, variables: { user: { name: `A${NUL}` } } },
        "variables.user.name",
      ],
      [{ to: "ann@example.org", templateId: ws.template.id, variables: { list: ["ok", NUL] } }, "variables.list[1]"],
      [
        { ...raw, attachments: [{ name: `a${NUL}.txt`, contentType: "text/plain", contentBlob: "aGk=" }] },
        "attachments[0].name",
      ],
    ];
    for (const [body, param] of cases) expectRefused(await send(body), param);
    const res = await send({ ...raw, variables: { [`na${NUL}me`]: "x" } });
    expectRefused(res, "variables.na\\u0000me");
    expect(res.json.error.message).toMatch(/NUL/);
    expectRefused(await ws.post(sandboxSend, "/api/v1/sandbox/email_messages", { ...raw, subject: NUL }), "subject");
    // The refusals are in the activity log: nothing of the NUL reached its jsonb columns.
    await flushActivityLog();
    const logged = await (
      await getDb()
    )
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.workspaceId, ws.workspace.id));
    expect(logged.filter((entry) => entry.status === 400)).toHaveLength(cases.length + 2);
  });

  it("is refused in batch elements, workflow runs, attachments and template renders", async () => {
    const ws = await setup();
    const elements = [raw, raw, { ...raw, subject: `x${NUL}` }];
    expectRefused(await ws.post(sendBatch, "/api/v1/batches", { emailMessages: elements }), "emailMessages[2].subject");
    expectRefused(await ws.post(triggerRun, "/api/v1/workflow_runs", { workflowKey: `k${NUL}` }), "workflowKey");
    expectRefused(await ws.post(triggerRun, "/api/v1/workflow_runs", { workflowId: `wf_${NUL}` }), "workflowId");
    expectRefused(
      await ws.post(triggerRun, "/api/v1/workflow_runs", {
        workflowId: ws.workflow.id,
        variables: { user: { email: NUL } },
      }),
      "variables.user.email",
    );
    expectRefused(await ws.post(createAttachment, "/api/v1/attachments", { name: `a${NUL}` }), "name");
    const params = { id: ws.template.id };
    const renderPath = `/api/v1/templates/${ws.template.id}/render`;
    expectRefused(
      await ws.post(render, renderPath, { variables: { user: { name: NUL } } }, params),
      "variables.user.name",
    );
    expectRefused(
      await ws.post(preview, `/api/v1/templates/${ws.template.id}/preview`, { user: { name: NUL } }, params),
      "user.name",
    );
  });
});

describe("a deeply nested JSON body", () => {
  it("is refused with 400 past 64 levels, before anything recursive (the metaId hash) touches it", async () => {
    const ws = await setup();
    const deep = nested(5000);
    const sends: Array<[unknown, string, string]> = [
      [sendEmail, "/api/v1/email_messages", withRaw({ ...raw, metaId: "m-1" }, "variables", deep)],
      [sendEmail, "/api/v1/email_messages", withRaw({ ...raw, metaId: "m-1" }, "headers", deep)],
      [sendBatch, "/api/v1/batches", `{"emailMessages":[${withRaw({ ...raw, metaId: "m-2" }, "variables", deep)}]}`],
      [triggerRun, "/api/v1/workflow_runs", withRaw({ workflowId: ws.workflow.id, metaId: "m-3" }, "variables", deep)],
      [render, `/api/v1/templates/${ws.template.id}/render`, withRaw({}, "variables", deep).replace("{,", "{")],
    ];
    for (const [handler, path, body] of sends) {
      const res = await ws.postRaw(handler, path, body, { id: ws.template.id });
      expect(res.status, path).toBe(400);
      expect(res.json.error.code).toBe("EMAIL_MESSAGE_INVALID_PARAMETER_ERROR");
      expect(res.json.error.message).toMatch(/nested deeper than 64 levels/);
    }
    const res = await ws.postRaw(
      sendEmail,
      "/api/v1/email_messages",
      withRaw(raw, "metadata", "[".repeat(10_000) + "]".repeat(10_000)),
    );
    expect(res.status).toBe(400);
    expect(res.json.error.param).toMatch(/^metadata\[0\]\[0\]/);
  });

  it("accepts 64 levels: a variable nested as deep as the cap allows still sends", async () => {
    const ws = await setup();
    const body = withRaw({ ...raw, metaId: "deep-ok" }, "variables", `{"deep":${nested(62)}}`);
    const res = await ws.postRaw(sendEmail, "/api/v1/email_messages", body);
    expect(res.status, res.text).toBe(201);
    expect((await ws.postRaw(sendEmail, "/api/v1/email_messages", body)).status).toBe(200);
  });
});

describe("the attachment request over its 64 KB limit", () => {
  it("names the limit in KB", async () => {
    const ws = await setup();
    const res = await ws.post(createAttachment, "/api/v1/attachments", { name: "x".repeat(70 * 1024) });
    expect(res.status).toBe(413);
    expect(res.json.error.message).toBe("The request body is larger than 64 KB.");
  });
});
