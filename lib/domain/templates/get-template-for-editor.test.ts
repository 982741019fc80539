import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { createUser } from "@/lib/domain/users/create-user";
import { getTemplateForEditor } from "./get-template-for-editor";
import { updateTemplate } from "./update-template";

describe("getTemplateForEditor", () => {
  it("gives the template and who saved its current version; another workspace's id is not found", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const template = await ws.createTemplate({});
    expect(await getTemplateForEditor(ws.workspace.id, template.id)).toMatchObject({
      template: { id: template.id, version: 1 },
      updatedBy: null,
    });

    const user = await createUser({
      email: `editor-${Date.now()}@team.test`,
      name: "Eda Editor",
      password: "editor-password",
      workspaceId: ws.workspace.id,
    });
    await updateTemplate({
      workspaceId: ws.workspace.id,
      templateId: template.id,
      userId: user.id,
      baseVersion: 1,
      content: { name: "W", subject: "S", bodyHtml: "<p>2</p>" },
    });
    expect(await getTemplateForEditor(ws.workspace.id, template.id)).toMatchObject({
      template: { version: 2, bodyHtml: "<p>2</p>" },
      updatedBy: { name: "Eda Editor", email: user.email },
    });

    await expect(getTemplateForEditor(other.workspace.id, template.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getTemplateForEditor(ws.workspace.id, "tpl_0000000000000000")).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
