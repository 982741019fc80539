import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { templates, templateVersions } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { updateTemplate } from "./update-template";

const content = { name: "Welcome", subject: "Hi {{ name }}", bodyHtml: "<p>v2 {{ name }}</p>" };

describe("updateTemplate", () => {
  it("saves each change as the next version, keeping every earlier one", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({ name: "Welcome", subject: "Hi", bodyHtml: "<p>v1</p>" });
    const saved = await updateTemplate({
      workspaceId: ws.workspace.id,
      templateId: template.id,
      content,
      userId: null,
      baseVersion: 1,
    });
    expect(saved.version).toBe(2);
    expect(saved.bodyHtml).toBe("<p>v2 {{ name }}</p>");
    const versions = await (
      await getDb()
    )
      .select()
      .from(templateVersions)
      .where(eq(templateVersions.templateId, template.id))
      .orderBy(asc(templateVersions.version));
    expect(versions.map((version) => [version.version, version.bodyHtml])).toEqual([
      [1, "<p>v1</p>"],
      [2, "<p>v2 {{ name }}</p>"],
    ]);
  });

  it("refuses a save based on a version someone else replaced, and changes nothing", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({ bodyHtml: "<p>v1</p>" });
    for (const baseVersion of [1, 2]) {
      await updateTemplate({
        workspaceId: ws.workspace.id,
        templateId: template.id,
        content,
        userId: null,
        baseVersion,
      });
    }
    await expect(
      updateTemplate({
        workspaceId: ws.workspace.id,
        templateId: template.id,
        content: { ...content, bodyHtml: "late" },
        userId: null,
        baseVersion: 1,
      }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      param: "baseVersion",
      message:
        "This template was saved by someone else after you opened version 1: it is at version 3 now. Reload to see their changes.",
    });
    const [row] = await (await getDb()).select().from(templates).where(eq(templates.id, template.id));
    expect(row.version).toBe(3);
  });

  it("refuses a save based on a version ahead of the stored one, saying that version does not exist yet", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({ bodyHtml: "<p>v1</p>" });
    await expect(
      updateTemplate({
        workspaceId: ws.workspace.id,
        templateId: template.id,
        content,
        userId: null,
        baseVersion: 7,
        baseVersionParam: "version",
      }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      param: "version",
      message:
        "Version 7 of this template does not exist yet: the latest is version 1. Reload to base your change on it.",
    });
    const [row] = await (await getDb()).select().from(templates).where(eq(templates.id, template.id));
    expect([row.version, row.bodyHtml]).toEqual([1, "<p>v1</p>"]);
  });

  it("refuses broken Liquid naming the field, and another workspace's template as not found", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const template = await ws.createTemplate({});
    await expect(
      updateTemplate({
        workspaceId: ws.workspace.id,
        templateId: template.id,
        content: { ...content, bodyHtml: "{% if %}" },
        userId: null,
      }),
    ).rejects.toMatchObject({ code: "TEMPLATE_RENDER_ERROR", param: "bodyHtml" });
    await expect(
      updateTemplate({
        workspaceId: ws.workspace.id,
        templateId: template.id,
        content: { ...content, name: " " },
        userId: null,
      }),
    ).rejects.toMatchObject({ param: "name" });
    await expect(
      updateTemplate({ workspaceId: other.workspace.id, templateId: template.id, content, userId: null }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
