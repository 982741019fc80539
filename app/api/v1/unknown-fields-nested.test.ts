import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { attachments, templateScenarios, workflows } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";

/** Issue #29 item 8, the rest: every body left lax refuses an unknown key, named by its full path (docs/api.md#unknown-fields). */
type Case = { method?: string; path: string; body: unknown; param: string; message: string };

async function expectRefused(authorization: string, cases: Case[]) {
  for (const { method, path, body, param, message } of cases) {
    const res = await callApi(path, { method: method ?? "POST", authorization, body });
    expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
    expect(res.json.error, path).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", param, message });
  }
}

describe("unknown fields in nested and remaining bodies", () => {
  it("workflow steps: each step's keys, by the step's type, on POST and PATCH; nothing is saved", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const send = { type: "sendEmail", templateId: template.id, to: "{{ email }}" };
    const tempalte = { type: "sendEmail", tempalteId: template.id, to: "{{ email }}" };
    await expectRefused(ws.authorization, [
      {
        path: "/v1/workflows",
        body: { name: "W", steps: [send, { type: "wait", seconds: 60 }, tempalte] },
        param: "steps[2].tempalteId",
        message: "Unknown field steps[2].tempalteId; did you mean templateId?",
      },
      {
        path: "/v1/workflows",
        body: { name: "W", steps: [{ type: "wait", second: 60 }, send] },
        param: "steps[0].second",
        message: "Unknown field steps[0].second; did you mean seconds?",
      },
      {
        // A wait step does not take a sendEmail field: the step's own type decides what is known.
        path: "/v1/workflows",
        body: { name: "W", steps: [{ type: "wait", seconds: 60, to: "x" }, send] },
        param: "steps[0].to",
        message: "Unknown field steps[0].to; known fields are type, seconds.",
      },
    ]);
    const db = await getDb();
    expect(await db.select().from(workflows).where(eq(workflows.workspaceId, ws.workspace.id))).toEqual([]);
    const made = await callApi("/v1/workflows", {
      authorization: ws.authorization,
      body: { name: "W", steps: [{ ...send, cc: null }] },
    });
    expect(made.status).toBe(201);
    await expectRefused(ws.authorization, [
      {
        method: "PATCH",
        path: `/v1/workflows/${made.json.data.id}`,
        body: { steps: [{ ...send, replyto: "a@example.org" }] },
        param: "steps[0].replyto",
        message: "Unknown field steps[0].replyto; did you mean replyTo?",
      },
    ]);
    // An unknown type is the schema's to answer, as before.
    const unknownType = await callApi("/v1/workflows", {
      authorization: ws.authorization,
      body: { name: "W", steps: [{ type: "sms", to: "x" }] },
    });
    expect(unknownType.json.error.message).toMatch(/type must be "sendEmail" or "wait"/);
  });

  it("attachments, template render, validate and scenarios, webhook replay, reschedule, and the bodiless POSTs", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const endpoint = "whep_0000000000000000";
    await expectRefused(ws.authorization, [
      {
        path: "/v1/attachments",
        body: { name: "a.pdf", contenttype: "application/pdf" },
        param: "contenttype",
        message: "Unknown field contenttype; did you mean contentType?",
      },
      {
        path: `/v1/templates/${template.id}/render`,
        body: { variabels: {} },
        param: "variabels",
        message: "Unknown field variabels; did you mean variables?",
      },
      {
        path: "/v1/templates/validate",
        body: { subject: "Hi", bodyHtml: "<p>x</p>", strcit: true },
        param: "strcit",
        message: "Unknown field strcit; did you mean strict?",
      },
      {
        path: `/v1/templates/${template.id}/scenarios`,
        body: { name: "Ada", varibles: {} },
        param: "varibles",
        message: "Unknown field varibles; did you mean variables?",
      },
      {
        path: `/v1/webhook_endpoints/${endpoint}/replay`,
        body: { since: "2026-01-01T00:00:00Z", mdoe: "all" },
        param: "mdoe",
        message: "Unknown field mdoe; did you mean mode?",
      },
      {
        method: "PATCH",
        path: "/v1/email_messages/em_0000000000000000",
        body: { scheduledat: "2030-01-01T00:00:00Z" },
        param: "scheduledat",
        message: "Unknown field scheduledat; did you mean scheduledAt?",
      },
      {
        path: `/v1/webhook_endpoints/${endpoint}/test`,
        body: { type: "email.sent" },
        param: "type",
        message: "Unknown field type; this operation takes no fields.",
      },
      {
        path: `/v1/webhook_endpoints/${endpoint}/rotate_secret`,
        body: { keepOld: true },
        param: "keepOld",
        message: "Unknown field keepOld; this operation takes no fields.",
      },
      {
        path: `/v1/templates/${template.id}/versions/1/restore`,
        body: { version: 1 },
        param: "version",
        message: "Unknown field version; this operation takes no fields.",
      },
    ]);
    const db = await getDb();
    expect(await db.select().from(attachments).where(eq(attachments.workspaceId, ws.workspace.id))).toEqual([]);
    expect(await db.select().from(templateScenarios).where(eq(templateScenarios.templateId, template.id))).toEqual([]);
  });

  it("the same bodies with known keys pass the check", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate();
    const post = (path: string, body: unknown, method = "POST") =>
      callApi(path, { method, authorization: ws.authorization, body });
    expect((await post(`/v1/templates/${template.id}/render`, { variables: { name: "Ada" } })).status).toBe(200);
    expect((await post("/v1/templates/validate", { subject: "Hi", bodyHtml: "<p>x</p>", strict: true })).status).toBe(
      200,
    );
    const scenario = await post(`/v1/templates/${template.id}/scenarios`, { name: "Ada", variables: { name: "Ada" } });
    expect(scenario.status).toBe(200);
    const renamed = await post(
      `/v1/templates/${template.id}/scenarios/${scenario.json.data.id}`,
      { name: "Ada L." },
      "PATCH",
    );
    expect(renamed.status).toBe(200);
    expect((await post(`/v1/templates/${template.id}/versions/1/restore`, {})).status).toBe(200);
    const missing = await post("/v1/webhook_endpoints/whep_0000000000000000/replay", {
      since: "2026-01-01T00:00:00Z",
      mode: "all",
    });
    expect(missing.status).toBe(404);
  });
});
