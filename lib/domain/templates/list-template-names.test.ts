import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { createTemplate } from "./create-template";
import { listTemplateNames } from "./list-template-names";

describe("listTemplateNames", () => {
  it("names this workspace's templates only", async () => {
    const { workspace } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const ours = await createTemplate({
      workspaceId: workspace.id,
      name: "Receipt",
      subject: "s",
      bodyHtml: "<p>x</p>",
    });
    const theirs = await createTemplate({ workspaceId: other.id, name: "Theirs", subject: "s", bodyHtml: "<p>x</p>" });
    const names = await listTemplateNames(workspace.id, [ours.id, theirs.id, null, ours.id]);
    expect([...names]).toEqual([[ours.id, "Receipt"]]);
    expect(await listTemplateNames(workspace.id, [null])).toEqual(new Map());
  });
});
