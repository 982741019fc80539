import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { compiledVersionsCached } from "./compiled-versions";
import { renderTemplateById } from "./render-template-by-id";
import { restoreTemplateVersion } from "./restore-template-version";
import { updateTemplate } from "./update-template";

describe("renderTemplateById and the per-version cache", () => {
  it("renders a save at once (a new version), a restore too, and keeps each version parsed once", async () => {
    const ws = await createTestWorkspace();
    const template = await ws.createTemplate({
      name: "Welcome",
      subject: "Hi {{ name }}",
      bodyHtml: "<p>v1 {{ name }}</p>",
    });
    const render = () => renderTemplateById(ws.workspace.id, template.id, { name: "Ada" });

    expect(await render()).toMatchObject({ subject: "Hi Ada", bodyHtml: "<p>v1 Ada</p>", bodyText: "v1 Ada" });
    expect(await render()).toMatchObject({ bodyHtml: "<p>v1 Ada</p>" });
    expect(compiledVersionsCached(template.id)).toEqual([1]);

    const content = {
      name: "Welcome",
      subject: "Hello {{ name }}",
      bodyHtml: "<p>v2 {{ name }}</p>",
      bodyText: "text v2 {{ name }}",
    };
    await updateTemplate({
      workspaceId: ws.workspace.id,
      templateId: template.id,
      content,
      userId: null,
      baseVersion: 1,
    });
    expect(await render()).toEqual({ subject: "Hello Ada", bodyHtml: "<p>v2 Ada</p>", bodyText: "text v2 Ada" });
    expect(compiledVersionsCached(template.id)).toEqual([1, 2]);

    // Strict is read with the version: a strict save of the same text fails on a missing variable.
    await updateTemplate({
      workspaceId: ws.workspace.id,
      templateId: template.id,
      content: { ...content, strict: true },
      userId: null,
      baseVersion: 2,
    });
    await expect(renderTemplateById(ws.workspace.id, template.id, {})).rejects.toMatchObject({
      code: "TEMPLATE_RENDER_ERROR",
    });

    await restoreTemplateVersion({ workspaceId: ws.workspace.id, templateId: template.id, version: 1, userId: null });
    expect(await render()).toMatchObject({ subject: "Hi Ada", bodyHtml: "<p>v1 Ada</p>" });
  });

  it("answers another workspace's template as not found, even once it is cached", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const template = await ws.createTemplate({ bodyHtml: "<p>mine</p>" });
    await renderTemplateById(ws.workspace.id, template.id, {});
    await expect(renderTemplateById(other.workspace.id, template.id, {})).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
