import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { randomBytes, randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/provider-events/resend/handlers";
import { getDb } from "@/db/client";
import { emailMessages, workspaces } from "@/db/schema";
import { resetEnvForTests } from "@/lib/foundation/env";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { checkAutoPause } from "./check-auto-pause";
import { resumeSending } from "./resume-sending";

const SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const saved = process.env.RESEND_WEBHOOK_SECRET;
beforeAll(() => {
  process.env.RESEND_WEBHOOK_SECRET = SECRET;
  resetEnvForTests();
});
afterAll(() => {
  if (saved === undefined) delete process.env.RESEND_WEBHOOK_SECRET;
  else process.env.RESEND_WEBHOOK_SECRET = saved;
  resetEnvForTests();
});

let clock = Date.now() - 24 * 3600 * 1000;

/** `count` sent live messages, oldest first; the first `bounced` bounced, the next `complained` drew a complaint. */
async function sent(
  workspaceId: string,
  count: number,
  marks: { bounced?: number; complained?: number; sandbox?: boolean } = {},
) {
  const rows = Array.from({ length: count }, (_, index) => {
    const createdAt = new Date(clock++);
    const bounced = index < (marks.bounced ?? 0);
    const complained = !bounced && index < (marks.bounced ?? 0) + (marks.complained ?? 0);
    return {
      id: newId("message", createdAt),
      workspaceId,
      source: marks.sandbox ? ("SANDBOX_API" as const) : ("API" as const),
      sandbox: marks.sandbox ?? false,
      status: "SUCCEEDED" as const,
      referenceId: randomUUID(),
      to: ["x@example.org"],
      from: "hello@example.com",
      subject: "Hi",
      bodyHtml: "<p>x</p>",
      bodyText: "x",
      sentAt: marks.sandbox ? null : createdAt,
      firstBouncedAt: bounced ? createdAt : null,
      firstComplainedAt: complained ? createdAt : null,
      createdAt,
      updatedAt: createdAt,
    };
  });
  await (await getDb()).insert(emailMessages).values(rows);
  return rows.map((row) => row.referenceId);
}

async function workspaceState(id: string) {
  const [row] = await (await getDb()).select().from(workspaces).where(eq(workspaces.id, id));
  return row;
}

describe("checkAutoPause", () => {
  it("does not pause before AUTO_PAUSE_MIN_MESSAGES (100) live messages were sent, then pauses with the reason", async () => {
    const { workspace } = await createTestWorkspace();
    await sent(workspace.id, 99, { bounced: 50 });
    await sent(workspace.id, 50, { sandbox: true }); // sandbox mail never counts
    expect(await checkAutoPause({ workspaceId: workspace.id })).toMatchObject({ paused: false, sent: 99, bounced: 50 });
    expect((await workspaceState(workspace.id)).sendingPaused).toBe(false);

    await sent(workspace.id, 1);
    const check = await checkAutoPause({ workspaceId: workspace.id });
    expect(check).toMatchObject({ paused: true, sent: 100, bounced: 50 });
    const reason = "Paused automatically: bounce rate 50% over the last 100 live messages passed the 10% threshold.";
    expect(check.reason).toBe(reason);
    expect(await workspaceState(workspace.id)).toMatchObject({
      sendingPaused: true,
      pausedAutomatically: true,
      pausedReason: reason,
    });
    expect((await workspaceState(workspace.id)).pausedAt).toBeInstanceOf(Date);
  });

  it("counts only the last 1,000 live messages, and pauses strictly above the bounce threshold", async () => {
    const { workspace } = await createTestWorkspace();
    await sent(workspace.id, 300, { bounced: 300 }); // old history, outside the window
    await sent(workspace.id, 900);
    await sent(workspace.id, 100, { bounced: 100 }); // exactly 10% of the last 1,000: not above
    expect(await checkAutoPause({ workspaceId: workspace.id })).toMatchObject({
      paused: false,
      sent: 1000,
      bounced: 100,
    });
    await sent(workspace.id, 2, { bounced: 2 }); // pushes two clean ones out of the window
    const check = await checkAutoPause({ workspaceId: workspace.id });
    expect(check).toMatchObject({ paused: true, sent: 1000, bounced: 102 });
    expect(check.reason).toBe(
      "Paused automatically: bounce rate 10.2% over the last 1,000 live messages passed the 10% threshold.",
    );
  });

  it("after a resume, only bounces recorded since count: the ones that caused the pause do not pause again", async () => {
    const { workspace } = await createTestWorkspace();
    await sent(workspace.id, 100, { bounced: 20 });
    expect(await checkAutoPause({ workspaceId: workspace.id })).toMatchObject({ paused: true, bounced: 20 });
    await resumeSending({ actor: AUDIT_SYSTEM_ACTOR, workspaceId: workspace.id });
    expect(await checkAutoPause({ workspaceId: workspace.id })).toMatchObject({ paused: false, sent: 100, bounced: 0 });

    const later = new Date(Date.now() + 1000);
    const db = await getDb();
    const recent = await db
      .select({ id: emailMessages.id })
      .from(emailMessages)
      .where(eq(emailMessages.workspaceId, workspace.id))
      .limit(11);
    await db
      .update(emailMessages)
      .set({ firstBouncedAt: later })
      .where(
        inArray(
          emailMessages.id,
          recent.map((row) => row.id),
        ),
      );
    expect(await checkAutoPause({ workspaceId: workspace.id })).toMatchObject({ paused: true, sent: 100, bounced: 11 });
  });

  it("pauses on the complaint rate (0.1%): one complaint in 1,000 is not above it, two are", async () => {
    const { workspace } = await createTestWorkspace();
    await sent(workspace.id, 1, { complained: 1 });
    await sent(workspace.id, 999);
    expect(await checkAutoPause({ workspaceId: workspace.id })).toMatchObject({ paused: false, complained: 1 });
    await sent(workspace.id, 2, { complained: 2 });
    const check = await checkAutoPause({ workspaceId: workspace.id });
    expect(check).toMatchObject({ paused: true, sent: 1000, complained: 2 });
    expect(check.reason).toBe(
      "Paused automatically: complaint rate 0.2% over the last 1,000 live messages passed the 0.1% threshold.",
    );
  });

  it("runs after a bounce arrives through the Resend webhook", async () => {
    const { workspace } = await createTestWorkspace();
    await sent(workspace.id, 95, { bounced: 10 });
    const [emailId] = (await sent(workspace.id, 5)).slice(-1);
    const at = new Date();
    const rawBody = JSON.stringify({
      type: "email.bounced",
      created_at: at.toISOString(),
      data: {
        created_at: at.toISOString(),
        email_id: emailId,
        to: ["x@example.org"],
        bounce: { type: "Permanent", subType: "General", message: "No such user" },
      },
    });
    const svixId = `msg_${randomUUID()}`;
    const response = await callRoute(POST, "/api/provider-events/resend", {
      method: "POST",
      rawBody,
      headers: {
        "content-type": "application/json",
        "svix-id": svixId,
        "svix-timestamp": String(Math.floor(at.getTime() / 1000)),
        "svix-signature": new Webhook(SECRET).sign(svixId, at, rawBody),
      },
    });
    expect(response.status).toBe(200);
    expect(await workspaceState(workspace.id)).toMatchObject({
      sendingPaused: true,
      pausedAutomatically: true,
      pausedReason: "Paused automatically: bounce rate 11% over the last 100 live messages passed the 10% threshold.",
    });
  });
});
