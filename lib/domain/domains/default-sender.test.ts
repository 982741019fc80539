import { describe, expect, it } from "vitest";
import { addDomain } from "@/lib/domain/domains/add-domain";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { defaultSenderFor } from "./default-sender";

describe("defaultSenderFor", () => {
  it("is hello@ the first verified domain, with the workspace name; null while none is verified", async () => {
    const workspace = await createWorkspace({ name: "Acme" });
    await addDomain({ workspaceId: workspace.id, name: "pending.test" });
    expect(await defaultSenderFor(workspace.id)).toBeNull();
    await addDomain({ workspaceId: workspace.id, name: "mail.acme.test", verified: true });
    await addDomain({ workspaceId: workspace.id, name: "later.acme.test", verified: true });
    expect(await defaultSenderFor(workspace.id)).toBe("Acme <hello@mail.acme.test>");
  });

  it("quotes a display name with specials and leaves out one that would read as Liquid", async () => {
    const quoted = await createWorkspace({ name: 'Acme, "Inc."' });
    await addDomain({ workspaceId: quoted.id, name: "acme.test", verified: true });
    expect(await defaultSenderFor(quoted.id)).toBe('"Acme, \\"Inc.\\"" <hello@acme.test>');
    const liquid = await createWorkspace({ name: "{{ team }}" });
    await addDomain({ workspaceId: liquid.id, name: "team.test", verified: true });
    expect(await defaultSenderFor(liquid.id)).toBe("<hello@team.test>");
  });
});
