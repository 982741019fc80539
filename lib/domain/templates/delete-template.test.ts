import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { templates, templateVersions } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { createWorkflow } from "@/lib/flows/workflows/create-workflow";
import { createTemplateFromStarter } from "./create-template-from-starter";
import { deleteTemplate } from "./delete-template";
import { findWorkflowsUsingTemplate } from "./find-workflows-using-template";

const sendStep = (templateId: string) => ({ type: "sendEmail", templateId, to: "{{ email }}" });

async function rowsOf(templateId: string) {
  const db = await getDb();
  return {
    templates: await db.select().from(templates).where(eq(templates.id, templateId)),
    versions: await db.select().from(templateVersions).where(eq(templateVersions.templateId, templateId)),
  };
}

describe("deleteTemplate", () => {
  it("deletes an unused template with its versions and scenarios", async () => {
    const ws = await createTestWorkspace();
    const template = await createTemplateFromStarter({
      workspaceId: ws.workspace.id,
      starterKey: "welcome",
      userId: null,
    });
    const kept = await ws.createTemplate({ name: "Kept" });
    await expect(
      deleteTemplate({ actor: AUDIT_CLI_ACTOR, workspaceId: ws.workspace.id, templateId: template.id }),
    ).resolves.toMatchObject({ id: template.id });
    expect(await rowsOf(template.id)).toEqual({ templates: [], versions: [] });
    expect((await rowsOf(kept.id)).templates).toHaveLength(1);
  });

  it("refuses while a workflow's steps use it, naming the workflows, and leaves template and workflows intact", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({ name: "Receipt" });
    const unrelated = await ws.createTemplate({ name: "Other" });
    const onboarding = await createWorkflow({
      workspaceId: ws.workspace.id,
      definition: {
        name: "Onboarding",
        steps: [sendStep(unrelated.id), { type: "wait", seconds: 5 }, sendStep(template.id)],
      },
    });
    const billing = await createWorkflow({
      workspaceId: ws.workspace.id,
      definition: { name: "Billing", key: "billing", steps: [sendStep(template.id)] },
    });
    await createWorkflow({
      workspaceId: ws.workspace.id,
      definition: { name: "Unrelated", steps: [sendStep(unrelated.id)] },
    });

    expect(
      (await findWorkflowsUsingTemplate(await getDb(), ws.workspace.id, template.id)).map((workflow) => workflow.id),
    ).toEqual([billing.id, onboarding.id]);
    const refusal = deleteTemplate({ actor: AUDIT_CLI_ACTOR, workspaceId: ws.workspace.id, templateId: template.id });
    await expect(refusal).rejects.toMatchObject({
      code: "CONFLICT",
      param: "templateId",
      message: expect.stringContaining("“Billing”, “Onboarding”"),
    });
    expect((await rowsOf(template.id)).templates).toHaveLength(1);
    expect((await rowsOf(template.id)).versions).toHaveLength(1);
    expect(await findWorkflowsUsingTemplate(await getDb(), ws.workspace.id, template.id)).toHaveLength(2);
  });

  it("answers another workspace's template as not found and deletes nothing; a workflow elsewhere does not count", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const template = await ws.createTemplate({});
    await expect(
      deleteTemplate({ actor: AUDIT_CLI_ACTOR, workspaceId: other.workspace.id, templateId: template.id }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", param: "templateId" });
    await expect(
      deleteTemplate({ actor: AUDIT_CLI_ACTOR, workspaceId: ws.workspace.id, templateId: "tpl_unknown" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await rowsOf(template.id)).templates).toHaveLength(1);
    expect(await findWorkflowsUsingTemplate(await getDb(), other.workspace.id, template.id)).toEqual([]);
  });
});
