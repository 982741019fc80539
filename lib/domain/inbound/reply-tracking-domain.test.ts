import { afterEach, describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { getDb } from "@/db/client";
import { addTestInboundDomain } from "./route-testing";
import { replyTrackingDomain } from "./reply-tracking-domain";

afterEach(() => useSettings({ BOUNCE_DOMAIN: undefined }));

const domainOf = async (workspaceId: string) => replyTrackingDomain(await getDb(), workspaceId);

describe("replyTrackingDomain (docs/inbound.md#reply-tracking)", () => {
  it("is the workspace's oldest verified inbound domain: pending ones and other workspaces' are passed over", async () => {
    useSettings({ BOUNCE_DOMAIN: "bounces.example.test" });
    const { workspace } = await createTestWorkspace();
    const other = await createTestWorkspace();
    await addTestInboundDomain(other.workspace.id, "other-rtd.test");
    await addTestInboundDomain(workspace.id, "pending-rtd.test", { verified: false });
    expect(await domainOf(workspace.id)).toBe("bounces.example.test");
    await addTestInboundDomain(workspace.id, "first-rtd.test");
    await addTestInboundDomain(workspace.id, "second-rtd.test");
    expect(await domainOf(workspace.id)).toBe("first-rtd.test");
  });

  it("falls back to BOUNCE_DOMAIN (lower-cased), else null", async () => {
    const { workspace } = await createTestWorkspace();
    useSettings({ BOUNCE_DOMAIN: "Bounces.Example.TEST" });
    expect(await domainOf(workspace.id)).toBe("bounces.example.test");
    useSettings({ BOUNCE_DOMAIN: undefined });
    expect(await domainOf(workspace.id)).toBeNull();
  });
});
