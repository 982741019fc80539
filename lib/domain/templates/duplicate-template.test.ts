import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { templates, templateScenarios, templateVersions } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { newId } from "@/lib/foundation/ids";
import { duplicateTemplate } from "./duplicate-template";
import { updateTemplate } from "./update-template";

describe("duplicateTemplate", () => {
  it("copies the current content and the scenarios into a new template at version 1, named (copy)", async () => {
    const ws = await createTestWorkspace();
    const source = await ws.createTemplate({
      name: "Receipt",
      kind: "blocks",
      blocks: { root: { type: "EmailLayout", data: { childrenIds: [] } } },
      strict: true,
      replyTo: "help@example.com",
    });
    await updateTemplate({
      workspaceId: ws.workspace.id,
      templateId: source.id,
      userId: null,
      content: {
        name: "Receipt",
        subject: "v2 {{ name }}",
        bodyHtml: "<p>v2</p>",
        kind: "blocks",
        blocks: { root: { type: "EmailLayout", data: { childrenIds: ["x"] } } },
        strict: true,
      },
    });
    const db = await getDb();
    for (const [name, variables] of [
      ["Zed first", { name: "Zed" }],
      ["Ada second", { name: "Ada" }],
    ] as const) {
      await db.insert(templateScenarios).values({
        id: newId("templateScenario"),
        workspaceId: ws.workspace.id,
        templateId: source.id,
        name,
        variables,
      });
    }

    const copy = await duplicateTemplate({ workspaceId: ws.workspace.id, templateId: source.id, userId: null });
    expect(copy.id).not.toBe(source.id);
    expect(copy).toMatchObject({
      name: "Receipt (copy)",
      subject: "v2 {{ name }}",
      bodyHtml: "<p>v2</p>",
      kind: "blocks",
      strict: true,
      version: 1,
      replyTo: null,
    });
    expect(copy.blocks).toEqual({ root: { type: "EmailLayout", data: { childrenIds: ["x"] } } });
    const versions = await db.select().from(templateVersions).where(eq(templateVersions.templateId, copy.id));
    expect(versions.map((version) => [version.version, version.subject])).toEqual([[1, "v2 {{ name }}"]]);
    const scenarios = await db
      .select()
      .from(templateScenarios)
      .where(eq(templateScenarios.templateId, copy.id))
      .orderBy(asc(templateScenarios.createdAt), asc(templateScenarios.id));
    expect(scenarios.map((scenario) => [scenario.name, scenario.variables])).toEqual([
      ["Zed first", { name: "Zed" }],
      ["Ada second", { name: "Ada" }],
    ]);
    const [original] = await db.select().from(templates).where(eq(templates.id, source.id));
    expect(original.version).toBe(2);
  });

  it("keeps a long name within the limit", async () => {
    const ws = await createTestWorkspace();
    const source = await ws.createTemplate({ name: "x".repeat(200) });
    const copy = await duplicateTemplate({ workspaceId: ws.workspace.id, templateId: source.id, userId: null });
    expect(copy.name).toHaveLength(200);
    expect(copy.name.endsWith(" (copy)")).toBe(true);
  });

  it("answers another workspace's template as not found and creates nothing", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const source = await ws.createTemplate({});
    await expect(
      duplicateTemplate({ workspaceId: other.workspace.id, templateId: source.id, userId: null }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", param: "templateId" });
    expect(await (await getDb()).select().from(templates).where(eq(templates.workspaceId, other.workspace.id))).toEqual(
      [],
    );
  });
});
