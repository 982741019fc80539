import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { templateScenarios } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { deleteTemplateScenario } from "./delete-template-scenario";
import { listTemplateScenarios } from "./list-template-scenarios";
import { saveTemplateScenario } from "./save-template-scenario";
import { TEMPLATE_SCENARIOS_MAX } from "./schemas";

async function rowsOf(templateId: string) {
  return (await getDb()).select().from(templateScenarios).where(eq(templateScenarios.templateId, templateId));
}

describe("template scenarios", () => {
  it("saves a new name as a scenario, the same name again as an update, and lists them by name", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({});
    const at = { workspaceId: ws.workspace.id, templateId: template.id };
    const first = await saveTemplateScenario({ ...at, name: " New customer ", variables: { name: "Ada" } });
    expect(first).toMatchObject({
      name: "New customer",
      variables: { name: "Ada" },
      templateId: template.id,
      workspaceId: ws.workspace.id,
    });
    expect(first.id).toMatch(/^tpls_/);
    await saveTemplateScenario({ ...at, name: "Empty cart", variables: { items: [] } });
    const updated = await saveTemplateScenario({
      ...at,
      name: "New customer",
      variables: { name: "Grace", vip: true },
    });
    expect(updated.id).toBe(first.id);
    const listed = await listTemplateScenarios(ws.workspace.id, template.id);
    expect(listed.map((scenario) => [scenario.name, scenario.variables])).toEqual([
      ["Empty cart", { items: [] }],
      ["New customer", { name: "Grace", vip: true }],
    ]);
  });

  it("refuses a bad name or variables that are not a JSON object, naming the field, and writes nothing", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({});
    const at = { workspaceId: ws.workspace.id, templateId: template.id };
    await expect(saveTemplateScenario({ ...at, name: "  ", variables: {} })).rejects.toMatchObject({
      param: "name",
      message: expect.stringContaining("must not be empty"),
    });
    await expect(saveTemplateScenario({ ...at, name: "List", variables: [1, 2] })).rejects.toMatchObject({
      param: "variables",
      message: expect.stringContaining("JSON object"),
    });
    await expect(saveTemplateScenario({ ...at, name: "Text", variables: "{}" })).rejects.toMatchObject({
      param: "variables",
    });
    await expect(
      saveTemplateScenario({ ...at, name: "Huge", variables: { blob: "x".repeat(300_000) } }),
    ).rejects.toMatchObject({ param: "variables", message: expect.stringContaining("256 KB") });
    expect(await rowsOf(template.id)).toEqual([]);
  });

  it(`keeps at most ${TEMPLATE_SCENARIOS_MAX} scenarios per template, while existing ones stay editable`, async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({});
    const at = { workspaceId: ws.workspace.id, templateId: template.id };
    for (let i = 0; i < TEMPLATE_SCENARIOS_MAX; i++)
      await saveTemplateScenario({ ...at, name: `S${i}`, variables: {} });
    await expect(saveTemplateScenario({ ...at, name: "One more", variables: {} })).rejects.toMatchObject({
      param: "name",
      message: expect.stringContaining("at most"),
    });
    await expect(saveTemplateScenario({ ...at, name: "S3", variables: { changed: 1 } })).resolves.toMatchObject({
      variables: { changed: 1 },
    });
    expect(await rowsOf(template.id)).toHaveLength(TEMPLATE_SCENARIOS_MAX);
  });

  it("deletes one scenario; another workspace's template or scenario is not found and stays untouched", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const template = await ws.createTemplate({});
    const at = { workspaceId: ws.workspace.id, templateId: template.id };
    const keep = await saveTemplateScenario({ ...at, name: "Keep", variables: {} });
    const drop = await saveTemplateScenario({ ...at, name: "Drop", variables: {} });

    const foreign = { workspaceId: other.workspace.id, templateId: template.id };
    await expect(listTemplateScenarios(other.workspace.id, template.id)).rejects.toMatchObject({
      code: "NOT_FOUND",
      param: "templateId",
    });
    await expect(saveTemplateScenario({ ...foreign, name: "Intruder", variables: {} })).rejects.toMatchObject({
      code: "NOT_FOUND",
      param: "templateId",
    });
    await expect(deleteTemplateScenario({ ...foreign, scenarioId: keep.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      param: "scenarioId",
    });
    await expect(listTemplateScenarios(ws.workspace.id, "tpl_unknown")).rejects.toMatchObject({ code: "NOT_FOUND" });

    await deleteTemplateScenario({ ...at, scenarioId: drop.id });
    await expect(deleteTemplateScenario({ ...at, scenarioId: drop.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await rowsOf(template.id)).map((row) => row.name)).toEqual(["Keep"]);
  });
});
