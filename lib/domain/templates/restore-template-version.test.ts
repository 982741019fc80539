import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { templateScenarios } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { newId } from "@/lib/foundation/ids";
import { createUser } from "@/lib/domain/users/create-user";
import { getTemplateVersionOrThrow } from "./get-template-version-or-throw";
import { listTemplateVersions } from "./list-template-versions";
import { previewTemplateVersion } from "./preview-template-version";
import { renderTemplateById } from "./render-template-by-id";
import { restoreTemplateVersion } from "./restore-template-version";
import { updateTemplate } from "./update-template";

async function templateWithTwoVersions() {
  const ws = await createTestWorkspace();
  const template = await ws.createTemplate({
    name: "Welcome",
    subject: "Hi {{ name }}",
    bodyHtml: "<p>First {{ name }}</p>",
    fromAddress: "Acme <hello@example.com>",
  });
  const v2 = {
    name: "Welcome v2",
    subject: "Hello {{ name }}",
    bodyHtml: "<p>Second {{ name }}</p>",
    fromAddress: "Team <team@example.com>",
    strict: true,
  };
  await updateTemplate({ workspaceId: ws.workspace.id, templateId: template.id, userId: null, content: v2 });
  return { ws, template };
}

describe("restoreTemplateVersion", () => {
  it("saves the old content as version N+1, restored from vK; the API renders the restored content", async () => {
    const { ws, template } = await templateWithTwoVersions();
    const user = await createUser({
      email: `restorer-${Date.now()}@example.org`,
      password: "password-123456",
      workspaceId: ws.workspace.id,
      name: "Rita",
    });
    const restored = await restoreTemplateVersion({
      workspaceId: ws.workspace.id,
      templateId: template.id,
      version: 1,
      userId: user.id,
      baseVersion: 2,
    });
    expect(restored).toMatchObject({
      version: 3,
      name: "Welcome",
      subject: "Hi {{ name }}",
      bodyHtml: "<p>First {{ name }}</p>",
      fromAddress: "Acme <hello@example.com>",
      strict: false,
      updatedByUserId: user.id,
    });
    const rendered = await renderTemplateById(ws.workspace.id, template.id, { name: "Ada" });
    expect(rendered).toMatchObject({ subject: "Hi Ada", bodyHtml: "<p>First Ada</p>" });

    const { versions } = await listTemplateVersions(ws.workspace.id, template.id);
    expect(
      versions.map((version) => [version.version, version.restoredFromVersion, version.author?.name ?? null]),
    ).toEqual([
      [3, 1, "Rita"],
      [2, null, null],
      [1, null, null],
    ]);
    // Nothing is lost: version 2 is still there to restore.
    expect(await getTemplateVersionOrThrow(ws.workspace.id, template.id, 2)).toMatchObject({
      bodyHtml: "<p>Second {{ name }}</p>",
    });
  });

  it("restores the current version as an identical new one", async () => {
    const { ws, template } = await templateWithTwoVersions();
    const again = await restoreTemplateVersion({
      workspaceId: ws.workspace.id,
      templateId: template.id,
      version: 2,
      userId: null,
    });
    expect(again).toMatchObject({ version: 3, subject: "Hello {{ name }}", strict: true });
    expect(await getTemplateVersionOrThrow(ws.workspace.id, template.id, 3)).toMatchObject({
      restoredFromVersion: 2,
      bodyHtml: "<p>Second {{ name }}</p>",
    });
  });

  it("refuses a stale base version and an unknown version, changing nothing", async () => {
    const { ws, template } = await templateWithTwoVersions();
    await expect(
      restoreTemplateVersion({
        workspaceId: ws.workspace.id,
        templateId: template.id,
        version: 1,
        userId: null,
        baseVersion: 1,
      }),
    ).rejects.toMatchObject({ code: "CONFLICT", param: "baseVersion" });
    await expect(
      restoreTemplateVersion({ workspaceId: ws.workspace.id, templateId: template.id, version: 9, userId: null }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", param: "version" });
    expect((await listTemplateVersions(ws.workspace.id, template.id)).template.version).toBe(2);
  });

  it("answers another workspace's template or version as not found", async () => {
    const { ws, template } = await templateWithTwoVersions();
    const other = await createTestWorkspace();
    await expect(
      restoreTemplateVersion({ workspaceId: other.workspace.id, templateId: template.id, version: 1, userId: null }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(listTemplateVersions(other.workspace.id, template.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getTemplateVersionOrThrow(other.workspace.id, template.id, 1)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(previewTemplateVersion(other.workspace.id, template.id, 1)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect((await listTemplateVersions(ws.workspace.id, template.id)).template.version).toBe(2);
  });
});

describe("previewTemplateVersion", () => {
  it("renders a saved version with the template's first scenario, and reports what a strict version misses", async () => {
    const { ws, template } = await templateWithTwoVersions();
    const db = await getDb();
    await db.insert(templateScenarios).values({
      id: newId("templateScenario"),
      workspaceId: ws.workspace.id,
      templateId: template.id,
      name: "First",
      variables: { name: "Ada" },
    });
    await db.insert(templateScenarios).values({
      id: newId("templateScenario"),
      workspaceId: ws.workspace.id,
      templateId: template.id,
      name: "Second",
      variables: { name: "Bob" },
    });
    const first = await previewTemplateVersion(ws.workspace.id, template.id, 1);
    expect(first.scenarioName).toBe("First");
    expect(first.preview.rendered).toMatchObject({
      subject: "Hi Ada",
      bodyHtml: "<p>First Ada</p>",
      fromAddress: "Acme <hello@example.com>",
    });

    const bare = await createTestWorkspace();
    const strict = await bare.createTemplate({ subject: "Hi {{ name }}", bodyHtml: "<p>{{ name }}</p>", strict: true });
    const missing = await previewTemplateVersion(bare.workspace.id, strict.id, 1);
    expect(missing.scenarioName).toBeNull();
    expect(missing.preview.rendered).toBeNull();
    expect(missing.preview.missingVariables).toEqual(["name"]);
  });
});
