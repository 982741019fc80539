import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { findInboundRecipient } from "@/lib/domain/inbound/find-recipient";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { auditTrail } from "@/lib/testing/management";
import { cli } from "../testing";

beforeAll(() => useSettings({ INBOUND_MX_HOST: "mx.cli-h2.test", DOMAIN_VERIFICATION: "off" }));
afterAll(() => useSettings({ INBOUND_MX_HOST: undefined, DOMAIN_VERIFICATION: undefined }));

describe("inbound domains and routes commands", () => {
  it("add a domain (the MX printed), route it, list, verify, delete; bad input exits 1 naming the field, misuse 2", async () => {
    const ws = await createTestWorkspace();
    const workspace = ["--workspace", ws.workspace.id];
    const added = await cli(["inbound", "domains", "add", ...workspace, "--name", "In.Cli-H2.test"]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("publish: in.cli-h2.test. MX 10 mx.cli-h2.test.");
    const listed = await cli(["inbound", "domains", "list", ...workspace, "--json"]);
    const [domain] = listed.json();
    expect(domain).toMatchObject({ name: "in.cli-h2.test", status: "VERIFIED" });

    const route = await cli([
      "inbound",
      "routes",
      "add",
      ...workspace,
      "--pattern",
      "support+{hash}@in.cli-h2.test",
      "--webhook",
      "--forward",
      "team@example.org",
      "--forward-from",
      "hello@example.com",
      "--json",
    ]);
    expect(route.code).toBe(0);
    const created = route.json();
    expect(created).toMatchObject({
      kind: "plus",
      actions: [{ type: "webhook" }, { type: "forward", to: "team@example.org", from: "hello@example.com" }],
    });
    const gone = await cli([
      "inbound",
      "routes",
      "add",
      ...workspace,
      "--pattern",
      "old@in.cli-h2.test",
      "--reject",
      "550 Gone",
    ]);
    expect(gone.stdout).toMatch(/old@in\.cli-h2\.test → reject 550 Gone/);
    expect(await findInboundRecipient(await getDb(), "support+7@in.cli-h2.test")).toMatchObject({
      ok: true,
      recipient: { mailboxHash: "7", route: { id: created.id } },
    });
    const routes = await cli(["inbound", "routes", "list", ...workspace, "--domain", "in.cli-h2.test"]);
    expect(routes.stdout).toContain(
      `${created.id}  enabled   support+{hash}@in.cli-h2.test  → store, webhook, forward to team@example.org`,
    );

    expect((await cli(["inbound", "domains", "verify", "in.cli-h2.test", ...workspace])).code).toBe(0);
    expect((await cli(["inbound", "routes", "delete", created.id, ...workspace])).code).toBe(0);

    const loop = await cli([
      "inbound",
      "routes",
      "add",
      ...workspace,
      "--pattern",
      "x@in.cli-h2.test",
      "--forward",
      "y@in.cli-h2.test",
    ]);
    expect([loop.code, loop.stderr]).toEqual([1, expect.stringContaining("a loop")]);
    const badJson = await cli([
      "inbound",
      "routes",
      "add",
      ...workspace,
      "--pattern",
      "x@in.cli-h2.test",
      "--actions",
      "[",
      "--json",
    ]);
    expect(JSON.parse(badJson.stderr).error).toMatchObject({ param: "actions" });
    expect((await cli(["inbound", "routes", "add", ...workspace])).code).toBe(2);
    expect((await cli(["inbound", "domains", "nope", ...workspace])).code).toBe(2);

    expect((await cli(["inbound", "domains", "delete", "in.cli-h2.test", ...workspace])).code).toBe(0);
    expect((await cli(["inbound", "domains", "list", ...workspace])).stdout).toContain("has no inbound domain");
    const trail = await auditTrail(ws.workspace.id, [
      "inbound_domain.add",
      "inbound_route.create",
      "inbound_domain.delete",
    ]);
    expect(trail.map((e) => [e.action, e.actorLabel])).toEqual([
      ["inbound_domain.add", "CLI"],
      ["inbound_route.create", "CLI"],
      ["inbound_route.create", "CLI"],
      ["inbound_domain.delete", "CLI"],
    ]);
  });
});
