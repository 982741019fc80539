import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { domains, workspaces } from "@/db/schema";
import { isId } from "@/lib/foundation/ids";
import { ensureSystemWorkspace, SYSTEM_WORKSPACE_ID, SYSTEM_WORKSPACE_NAME } from "./system-workspace";

describe("ensureSystemWorkspace", () => {
  it("creates the live, untracked System mail workspace with the sender's domain verified, idempotently", async () => {
    expect(isId("workspace", SYSTEM_WORKSPACE_ID)).toBe(true);
    await Promise.all([
      ensureSystemWorkspace("Postwerk <no-reply@mail.example.net>"),
      ensureSystemWorkspace("Postwerk <no-reply@mail.example.net>"),
    ]);
    await ensureSystemWorkspace("Other <robot@MAIL.example.net>");
    const db = await getDb();
    const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, SYSTEM_WORKSPACE_ID));
    expect(workspace).toMatchObject({ name: SYSTEM_WORKSPACE_NAME, testMode: false, trackingEnabled: false });
    const rows = await db
      .select()
      .from(domains)
      .where(and(eq(domains.workspaceId, SYSTEM_WORKSPACE_ID), eq(domains.name, "mail.example.net")));
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe("VERIFIED");
  });

  it("names the setting when the sender is unusable", async () => {
    await expect(ensureSystemWorkspace("no-reply@localhost")).rejects.toThrow(/SYSTEM_EMAIL_FROM/);
    await expect(ensureSystemWorkspace("not an address")).rejects.toThrow(/SYSTEM_EMAIL_FROM/);
  });
});
