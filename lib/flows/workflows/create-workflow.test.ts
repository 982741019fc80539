import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { unsubscribeGroups } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { createWorkflow } from "./create-workflow";
import { listWorkflows } from "./list-workflows";
import { WAIT_MAX_SECONDS } from "./schemas";
import { createWorkflowWorkspace } from "./testing";

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("createWorkflow", () => {
  it("stores name, key, enabled and the ordered steps; listWorkflows returns them oldest first", async () => {
    const ws = await createWorkflowWorkspace();
    await (
      await getDb()
    )
      .insert(unsubscribeGroups)
      .values({ id: newId("group"), workspaceId: ws.workspace.id, key: "news", name: "News" });
    const steps = [
      {
        type: "sendEmail",
        templateId: ws.template.id,
        to: "{{ user.email }}",
        cc: "ops@example.com",
        from: "Team <team@example.com>",
        replyTo: "{{ owner }}",
        groupKey: "news",
      },
      { type: "wait", seconds: WAIT_MAX_SECONDS },
      { type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}" },
    ];
    const first = await ws.createWorkflow({ name: "  Onboarding  ", key: "user:signed_up.v2-b", steps });
    expect(first).toMatchObject({ name: "Onboarding", key: "user:signed_up.v2-b", enabled: true, steps });
    expect(first.id).toMatch(/^wf_[0-9A-Za-z]{16}$/);
    const second = await ws.createWorkflow({ enabled: false, steps: [steps[0]] });
    expect(second).toMatchObject({ key: null, enabled: false });
    expect((await listWorkflows(ws.workspace.id)).map((w) => w.id)).toEqual([first.id, second.id]);
  });

  it("refuses bad definitions, naming the field", async () => {
    const ws = await createWorkflowWorkspace();
    const send = { type: "sendEmail", templateId: ws.template.id, to: "a@example.org" };
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ name: "" }, "name", /must not be empty/],
      [{ key: "has space" }, "key", /letters, digits/],
      [{ key: "k".repeat(101) }, "key", /letters, digits/],
      [{ steps: [] }, "steps", /at least one step/],
      [{ steps: [{ type: "wait", seconds: 5 }] }, "steps", /at least one sendEmail/],
      [{ steps: [send, { type: "wait", seconds: 5 }] }, "steps", /must not end with a wait/],
      [{ steps: [{ type: "wait", seconds: 0 }, send] }, "steps[0].seconds", /at least 1 second/],
      [{ steps: [{ type: "wait", seconds: WAIT_MAX_SECONDS + 1 }, send] }, "steps[0].seconds", /90 days/],
      [{ steps: [{ type: "wait", seconds: 1.5 }, send] }, "steps[0].seconds", /whole number/],
      [{ steps: [{ type: "sms", to: "x" }] }, "steps[0].type", /"sendEmail" or "wait"/],
      [{ steps: [{ ...send, to: " " }] }, "steps[0].to", /must not be empty/],
      [{ steps: [{ ...send, to: "{{ user.email" }] }, "steps[0].to", /not valid Liquid/],
      [{ steps: [send, { ...send, cc: "{{ a | nofilter }}" }] }, "steps[1].cc", /not valid Liquid/],
    ];
    for (const [definition, param, message] of cases) {
      const error = await rejection(ws.createWorkflow({ steps: [send], ...definition }));
      expect(error.param, JSON.stringify(definition)).toBe(param);
      expect(error.code).toBe("EMAIL_MESSAGE_INVALID_PARAMETER_ERROR");
      expect(error.message).toMatch(message);
    }
    expect(await listWorkflows(ws.workspace.id)).toEqual([]);
  });

  it("every template and group must exist in the workspace (404 naming the step); a key is unique per workspace (409)", async () => {
    const ws = await createWorkflowWorkspace();
    const other = await createWorkflowWorkspace();
    const mine = { type: "sendEmail", templateId: ws.template.id, to: "a@example.org" };
    const missing = await rejection(ws.createWorkflow({ steps: [mine, { ...mine, templateId: other.template.id }] }));
    expect(missing).toMatchObject({ code: "NOT_FOUND", param: "steps[1].templateId" });
    const noGroup = await rejection(ws.createWorkflow({ steps: [{ ...mine, groupKey: "nope" }] }));
    expect(noGroup).toMatchObject({ code: "NOT_FOUND", param: "steps[0].groupKey" });

    await ws.createWorkflow({ key: "welcome", steps: [mine] });
    const taken = await rejection(ws.createWorkflow({ key: "welcome", steps: [mine] }));
    expect(taken).toMatchObject({ code: "CONFLICT", param: "key" });
    // Another workspace may use the same key.
    await expect(
      other.createWorkflow({ key: "welcome", steps: [{ ...mine, templateId: other.template.id }] }),
    ).resolves.toMatchObject({ key: "welcome" });
    expect(await rejection(createWorkflow({ workspaceId: ws.workspace.id, definition: [] }))).toMatchObject({
      code: "INVALID_JSON",
    });
  });
});
