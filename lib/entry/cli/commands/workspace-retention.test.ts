import { describe, expect, it } from "vitest";
import { auditTrail } from "@/lib/testing/management";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { cli } from "../testing";

describe("workspace retention", () => {
  it("shows the defaults, sets both windows and the hold, resets with default; audited as the CLI", async () => {
    const { workspace } = await createTestWorkspace();
    const shown = await cli(["workspace", "retention", workspace.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("bodies 30 days (default), metadata 3650 days (default).");
    const set = await cli([
      "workspace",
      "retention",
      workspace.name,
      "--body-days",
      "7",
      "--metadata-days",
      "90",
      "--legal-hold",
      "on",
      "--json",
    ]);
    expect(set.code).toBe(0);
    expect(set.json()).toMatchObject({
      id: workspace.id,
      bodyRetentionDays: 7,
      metadataRetentionDays: 90,
      legalHold: true,
      legalHoldAt: expect.any(String),
      retention: { bodyDays: 7, metadataDays: 90 },
    });
    const reset = await cli(["workspace", "retention", workspace.id, "--body-days", "default", "--legal-hold", "off"]);
    expect(reset.stdout).toContain("bodies 30 days (default), metadata 90 days.");
    expect(reset.stdout).toContain("No legal hold.");
    const trail = await auditTrail(workspace.id, ["workspace.update"]);
    expect(trail).toHaveLength(2);
  });

  it("refuses a window the rules refuse, naming it, and a malformed number as misuse", async () => {
    const { workspace } = await createTestWorkspace();
    const short = await cli(["workspace", "retention", workspace.id, "--metadata-days", "3"]);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("metadataRetentionDays");
    const bad = await cli(["workspace", "retention", workspace.id, "--body-days", "ten"]);
    expect(bad.code).toBe(2);
  });
});
