import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { templates } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { createUser } from "@/lib/domain/users/create-user";
import { createWorkflow } from "@/lib/flows/workflows/create-workflow";
import { listDashboardTemplates } from "./list-dashboard-templates";
import { updateTemplate } from "./update-template";

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

async function setUpdatedAt(templateId: string, at: Date) {
  await (await getDb()).update(templates).set({ updatedAt: at }).where(eq(templates.id, templateId));
}

describe("listDashboardTemplates", () => {
  it("lists the most recently edited first, with version, who edited it and how many workflows use it", async () => {
    const ws = await createTestWorkspace();
    const editor = await createUser({
      email: `editor-${Date.now()}@example.org`,
      password: "password-123456",
      workspaceId: ws.workspace.id,
      name: "Eve Editor",
    });
    const older = await ws.createTemplate({ name: "Older" });
    const edited = await ws.createTemplate({ name: "Edited" });
    await setUpdatedAt(older.id, minutesAgo(10));
    await setUpdatedAt(edited.id, minutesAgo(20));
    await updateTemplate({
      workspaceId: ws.workspace.id,
      templateId: edited.id,
      userId: editor.id,
      content: { name: "Edited", subject: "Hi", bodyHtml: "<p>v2</p>" },
    });
    const step = (templateId: string) => ({ type: "sendEmail", templateId, to: "{{ email }}" });
    await createWorkflow({ workspaceId: ws.workspace.id, definition: { name: "A", steps: [step(edited.id)] } });
    await createWorkflow({
      workspaceId: ws.workspace.id,
      definition: { name: "B", steps: [step(older.id), { type: "wait", seconds: 60 }, step(edited.id)] },
    });

    const page = await listDashboardTemplates(ws.workspace.id);
    expect(
      page.items.map((item) => [item.name, item.version, item.usedByWorkflows, item.editor?.name ?? null]),
    ).toEqual([
      ["Edited", 2, 2, "Eve Editor"],
      ["Older", 1, 1, null],
    ]);
    expect(page.items[0]).toMatchObject({ kind: "code", editor: { email: editor.email } });
    expect(page).toMatchObject({ nextAfter: null, previousBefore: null });
  });

  it("searches name and subject case-insensitively, taking % and _ literally", async () => {
    const ws = await createTestWorkspace();
    await ws.createTemplate({ name: "Password reset", subject: "Reset it" });
    await ws.createTemplate({ name: "Receipt", subject: "Your ORDER {{ order.number }}" });
    await ws.createTemplate({ name: "100% off_sale", subject: "Sale" });
    const names = async (query: string) =>
      (await listDashboardTemplates(ws.workspace.id, { query })).items.map((item) => item.name).sort();
    expect(await names("PASSWORD")).toEqual(["Password reset"]);
    expect(await names("order")).toEqual(["Receipt"]);
    expect(await names("re")).toEqual(["Password reset", "Receipt"]);
    expect(await names("0% off_")).toEqual(["100% off_sale"]);
    expect(await names("%")).toEqual(["100% off_sale"]);
    expect(await names("nothing like it")).toEqual([]);
  });

  it("pages both ways on (updatedAt, id), and never shows another workspace's templates", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const foreign = await other.createTemplate({ name: "Foreign" });
    const created = [];
    for (let index = 0; index < 5; index++) {
      const template = await ws.createTemplate({ name: `T${index}` });
      await setUpdatedAt(template.id, minutesAgo(10 - index));
      created.push(template);
    }
    const first = await listDashboardTemplates(ws.workspace.id, { limit: 2 });
    expect(first.items.map((item) => item.name)).toEqual(["T4", "T3"]);
    expect(first.previousBefore).toBeNull();
    const second = await listDashboardTemplates(ws.workspace.id, { limit: 2, after: first.nextAfter! });
    expect(second.items.map((item) => item.name)).toEqual(["T2", "T1"]);
    const third = await listDashboardTemplates(ws.workspace.id, { limit: 2, after: second.nextAfter! });
    expect(third.items.map((item) => item.name)).toEqual(["T0"]);
    expect(third.nextAfter).toBeNull();
    const back = await listDashboardTemplates(ws.workspace.id, { limit: 2, before: third.previousBefore! });
    expect(back.items.map((item) => item.name)).toEqual(["T2", "T1"]);
    expect(back.previousBefore).toBe(created[2].id);
    await expect(listDashboardTemplates(ws.workspace.id, { after: foreign.id })).rejects.toMatchObject({
      param: "after",
    });
    expect((await listDashboardTemplates(other.workspace.id)).items.map((item) => item.id)).toEqual([foreign.id]);
  });
});
