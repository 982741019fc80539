import { describe, expect, it } from "vitest";
import { listUserWorkspaces } from "@/lib/flows/members/list-user-workspaces";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { isSetupOpen, setupFirstOwner } from "./setup-first-owner";

// One database per test file: this file's first user is the one setup creates.
describe("setupFirstOwner", () => {
  it("hands back the workspace the owner named, which the setup action opens: the seeded Demo sorts first", async () => {
    const demo = await createWorkspace({ name: "Demo" });
    expect(await isSetupOpen()).toBe(true);
    const owner = await setupFirstOwner({
      name: "Olivia",
      email: "olivia@setup.test",
      password: "a-long-password",
      workspaceName: "Acme",
    });
    const memberships = await listUserWorkspaces(owner.id);
    expect(memberships.map((workspace) => workspace.name)).toContain("Acme");
    expect(memberships.find((workspace) => workspace.id === owner.workspaceId)?.name).toBe("Acme");
    // Without the cookie the dashboard opens the oldest membership, which is not the one just named.
    expect(memberships[0].id).toBe(demo.id);
    await expect(
      setupFirstOwner({ email: "second@setup.test", password: "a-long-password", workspaceName: "Other" }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
  });
});
