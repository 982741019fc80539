import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { cli } from "../testing";

beforeAll(() => useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true" }));
afterAll(() => useSettings({ WEBHOOKS_ALLOW_PRIVATE: undefined, WEBHOOKS_ALLOW_HTTP: undefined }));

describe("webhook commands", () => {
  it("create (secret printed once), list, rotate, delete; bad input exits 1 naming the field", async () => {
    const ws = await createTestWorkspace();
    const workspace = ["--workspace", ws.workspace.id];
    const created = await cli([
      "webhook",
      "create",
      ...workspace,
      "--url",
      "http://127.0.0.1:9/hooks",
      "--events",
      "email.bounced,email.complained",
      "--json",
    ]);
    expect(created.code).toBe(0);
    const endpoint = JSON.parse(created.stdout);
    expect(endpoint).toMatchObject({
      url: "http://127.0.0.1:9/hooks",
      eventTypes: ["email.bounced", "email.complained"],
      createdBy: "cli",
      secret: expect.stringMatching(/^whsec_/),
    });

    const listed = await cli(["webhook", "list", ...workspace]);
    expect(listed.stdout).toContain(
      `${endpoint.id}  enabled   http://127.0.0.1:9/hooks  email.bounced,email.complained`,
    );
    expect(listed.stdout).not.toContain("whsec_");

    const rotated = await cli(["webhook", "rotate", ...workspace, "--id", endpoint.id]);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/new signing secret: whsec_/);
    expect(rotated.stdout).not.toContain(endpoint.secret);

    expect((await cli(["webhook", "delete", ...workspace, "--id", endpoint.id])).code).toBe(0);
    expect((await cli(["webhook", "list", ...workspace])).stdout).toContain("has no webhook endpoint");

    const bad = await cli(["webhook", "create", ...workspace, "--url", "http://127.0.0.1/", "--events", "email.nope"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("eventTypes[0]");
    expect((await cli(["webhook", "delete", ...workspace, "--id", endpoint.id])).code).toBe(1);
    expect((await cli(["webhook", "create", ...workspace])).code).toBe(2);
  });
});
