import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { templates } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { blocksToLiquidHtml, emptyBlocksDocument } from "./blocks.shared";
import { BLANK_CODE_BODY_HTML } from "./blank.shared";
import { createBlankTemplate } from "./create-blank-template";
import { renderTemplateById } from "./render-template-by-id";

describe("createBlankTemplate", () => {
  it("creates a blank code template (default name) that renders", async () => {
    const ws = await createTestWorkspace();
    const template = await createBlankTemplate({ workspaceId: ws.workspace.id, userId: null, kind: "code", name: "" });
    expect(template).toMatchObject({
      name: "Untitled template",
      kind: "code",
      blocks: null,
      version: 1,
      bodyHtml: BLANK_CODE_BODY_HTML,
    });
    expect((await renderTemplateById(ws.workspace.id, template.id, { name: "Ada" })).subject).toBe("Hello Ada");
    // From starts as the workspace's verified domain, so "Send to me" works before anything is typed.
    expect(template.fromAddress).toBe("Test workspace <hello@example.com>");
  });

  it("stores a blocks template's document and the HTML the browser compiled from it", async () => {
    const ws = await createTestWorkspace();
    const document = emptyBlocksDocument();
    const template = await createBlankTemplate({
      workspaceId: ws.workspace.id,
      userId: null,
      kind: "blocks",
      name: "Visual",
      bodyHtml: blocksToLiquidHtml(document),
      blocks: document,
    });
    expect(template).toMatchObject({ name: "Visual", kind: "blocks", blocks: document });
    expect((await renderTemplateById(ws.workspace.id, template.id, { name: "Ada" })).bodyHtml).toContain("Hello Ada");
  });

  it("refuses a blocks template without its document or HTML, or with broken Liquid, naming the field", async () => {
    const ws = await createTestWorkspace();
    const base = { workspaceId: ws.workspace.id, userId: null, kind: "blocks" as const, name: "Visual" };
    await expect(createBlankTemplate({ ...base, bodyHtml: "<p>x</p>", blocks: null })).rejects.toMatchObject({
      param: "blocks",
    });
    await expect(createBlankTemplate({ ...base, bodyHtml: " ", blocks: emptyBlocksDocument() })).rejects.toMatchObject({
      param: "bodyHtml",
    });
    await expect(
      createBlankTemplate({ ...base, bodyHtml: "{% if %}", blocks: emptyBlocksDocument() }),
    ).rejects.toMatchObject({ code: "TEMPLATE_RENDER_ERROR", param: "bodyHtml" });
    await expect(
      createBlankTemplate({ ...base, name: "x".repeat(201), bodyHtml: "<p>x</p>", blocks: emptyBlocksDocument() }),
    ).rejects.toMatchObject({ param: "name" });
    expect(await (await getDb()).select().from(templates).where(eq(templates.workspaceId, ws.workspace.id))).toEqual(
      [],
    );
  });
});
