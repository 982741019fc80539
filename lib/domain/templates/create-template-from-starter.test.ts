import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { templates, templateScenarios } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { createTemplateFromStarter } from "./create-template-from-starter";
import { renderTemplateById } from "./render-template-by-id";
import { STARTERS } from "./starters/generated";

describe("createTemplateFromStarter", () => {
  it("creates the template, its version 1 and the Sample scenario; the API renders it with the sample data", async () => {
    const ws = await createTestWorkspace();
    const template = await createTemplateFromStarter({
      workspaceId: ws.workspace.id,
      starterKey: "receipt",
      name: "  Shop receipt ",
      userId: null,
    });
    const starter = STARTERS.find((candidate) => candidate.key === "receipt")!;
    expect(template).toMatchObject({
      name: "Shop receipt",
      kind: "code",
      version: 1,
      subject: starter.subject,
      bodyHtml: starter.bodyHtml,
      bodyText: null,
    });
    const scenarios = await (
      await getDb()
    )
      .select()
      .from(templateScenarios)
      .where(eq(templateScenarios.templateId, template.id));
    expect(scenarios.map((scenario) => [scenario.name, scenario.variables])).toEqual([["Sample", starter.variables]]);
    const rendered = await renderTemplateById(ws.workspace.id, template.id, scenarios[0].variables);
    expect(rendered.subject).toBe("Your Acme receipt for order A-1042");
    expect(rendered.bodyHtml).toContain("Fountain pen × 1");
  });

  it("starts From the workspace's first verified domain, so the first test send works; empty without one", async () => {
    const ws = await createTestWorkspace({ name: "Shop" });
    const template = await createTemplateFromStarter({
      workspaceId: ws.workspace.id,
      starterKey: "receipt",
      userId: null,
    });
    expect(template.fromAddress).toBe("Shop <hello@example.com>");
    const bare = await createWorkspace({ name: "No domain yet" });
    expect(
      (await createTemplateFromStarter({ workspaceId: bare.id, starterKey: "welcome", userId: null })).fromAddress,
    ).toBeNull();
  });

  it("names the starter when no name is given", async () => {
    const ws = await createTestWorkspace();
    const template = await createTemplateFromStarter({
      workspaceId: ws.workspace.id,
      starterKey: "magic-link",
      name: " ",
      userId: null,
    });
    expect(template.name).toBe("Magic link");
  });

  it("refuses an unknown starter or a too long name, naming the field, and writes nothing", async () => {
    const ws = await createTestWorkspace();
    await expect(
      createTemplateFromStarter({ workspaceId: ws.workspace.id, starterKey: "nope", userId: null }),
    ).rejects.toMatchObject({ param: "starter", message: expect.stringContaining("receipt") });
    await expect(
      createTemplateFromStarter({
        workspaceId: ws.workspace.id,
        starterKey: "receipt",
        name: "x".repeat(201),
        userId: null,
      }),
    ).rejects.toMatchObject({ param: "name" });
    expect(await (await getDb()).select().from(templates).where(eq(templates.workspaceId, ws.workspace.id))).toEqual(
      [],
    );
  });
});
