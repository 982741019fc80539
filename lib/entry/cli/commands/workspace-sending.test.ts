import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { sendMessage } from "@/lib/sending/send-message";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { cli } from "../testing";

const raw = { from: "hello@example.com", to: "ada@example.org", subject: "Hi", bodyHtml: "<p>x</p>" };

describe("workspace pause / resume / discard-paused", () => {
  it("pauses with a reason, holds a send, resumes it; --json prints the state", async () => {
    const { workspace } = await createTestWorkspace();
    const paused = await cli(["workspace", "pause", workspace.id, "--reason", "List cleanup", "--json"]);
    expect(paused.code).toBe(0);
    expect(paused.json()).toMatchObject({
      id: workspace.id,
      sendingPaused: true,
      pausedReason: "List cleanup",
      pausedAutomatically: false,
    });
    const again = await cli(["workspace", "pause", workspace.name]);
    expect(again).toMatchObject({ code: 0 });
    expect(again.stdout).toMatch(/already paused \(since .+\): List cleanup$/);

    const { message } = await sendMessage({ workspaceId: workspace.id, sandbox: false, body: raw });
    expect(message.status).toBe("PAUSED");
    const resumed = await cli(["workspace", "resume", workspace.id, "--json"]);
    expect(resumed.code).toBe(0);
    expect(resumed.json()).toMatchObject({ sendingPaused: false, pausedReason: null, resumed: 1 });
    expect((await readMessageState(message.id)).message.status).toBe("PENDING");
    expect((await cli(["workspace", "resume", workspace.id])).stdout).toBe(
      `Resumed sending of "${workspace.name}" (${workspace.id}): 0 held messages queued for delivery.`,
    );
  });

  it("discard-paused erases the held messages", async () => {
    const { workspace } = await createTestWorkspace();
    await cli(["workspace", "pause", workspace.id]);
    const { message } = await sendMessage({ workspaceId: workspace.id, sandbox: false, body: raw });
    const result = await cli(["workspace", "discard-paused", workspace.id, "--json"]);
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({ id: workspace.id, name: workspace.name, discarded: 1 });
    expect((await readMessageState(message.id)).message.status).toBe("DELETED");
  });

  it("errors clearly: missing or unknown workspace (exit 2 / 1)", async () => {
    const missing = await cli(["workspace", "pause"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Error: Missing the workspace (ID or NAME).");
    expect(missing.stderr).toContain("Usage: npm run cli -- workspace pause ID|NAME");
    const unknown = await cli(["workspace", "resume", newId("workspace"), "--json"]);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr).error.code).toBe("NOT_FOUND");
    expect((await cli(["workspace", "pause", "ws_x", "--bogus"])).code).toBe(2);
  });
});

describe("workspace set", () => {
  it("changes tracking, test mode and name", async () => {
    const { workspace } = await createTestWorkspace();
    const result = await cli([
      "workspace",
      "set",
      workspace.id,
      "--tracking",
      "off",
      "--test-mode",
      "on",
      "--name",
      "Renamed",
      "--json",
    ]);
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ id: workspace.id, name: "Renamed", trackingEnabled: false, testMode: true });
    const [row] = await (await getDb()).select().from(workspaces).where(eq(workspaces.id, workspace.id));
    expect(row).toMatchObject({ name: "Renamed", trackingEnabled: false, testMode: true });
  });

  it("refuses a bad on/off value and an empty change, changing nothing", async () => {
    const { workspace } = await createTestWorkspace({ tracking: true });
    const bad = await cli(["workspace", "set", workspace.id, "--tracking", "maybe"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Error: --tracking must be on or off (got "maybe").');
    const nothing = await cli(["workspace", "set", workspace.id]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("Nothing to change");
    const [row] = await (await getDb()).select().from(workspaces).where(eq(workspaces.id, workspace.id));
    expect(row.trackingEnabled).toBe(true);
  });
});

describe("message erase", () => {
  it("erases a message of the workspace; another workspace's is not found", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const { message } = await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body: raw });
    const wrong = await cli(["message", "erase", message.id, "--workspace", other.workspace.id]);
    expect(wrong).toMatchObject({ code: 1, stderr: `Error: Email message ${message.id} not found.` });
    const result = await cli(["message", "erase", message.id, "--workspace", ws.workspace.id, "--json"]);
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({ id: message.id, workspaceId: ws.workspace.id, status: "DELETED" });
    expect((await readMessageState(message.id)).message.status).toBe("DELETED");
    const noWorkspace = await cli(["message", "erase", message.id]);
    expect(noWorkspace.code).toBe(2);
    expect(noWorkspace.stderr).toContain("Error: Missing --workspace.");
  });
});

describe("message cancel", () => {
  it("cancels a scheduled message; a second cancel is refused naming the state", async () => {
    const ws = await createTestWorkspace();
    const scheduledAt = new Date(Date.now() + 3600_000).toISOString();
    const { message } = await sendMessage({
      workspaceId: ws.workspace.id,
      sandbox: false,
      body: { ...raw, scheduledAt },
    });
    const result = await cli(["message", "cancel", message.id, "--workspace", ws.workspace.id, "--json"]);
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({ id: message.id, workspaceId: ws.workspace.id, status: "CANCELLED", scheduledAt });
    expect((await readMessageState(message.id)).codes.at(-1)).toBe("EMAIL_MESSAGE_CANCELLED");
    const again = await cli(["message", "cancel", message.id, "--workspace", ws.workspace.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is CANCELLED: only a message still waiting for delivery can be changed/);
  });
});
