import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditEvents, emailMessages } from "@/db/schema";
import { purgeInboundContent } from "@/lib/domain/inbound/purge-inbound-content";
import { purgeMessageContent } from "@/lib/domain/messages/purge-message-content";
import { setClock } from "@/lib/foundation/clock";
import { newId } from "@/lib/foundation/ids";
import { purgeOldAuditEvents } from "@/lib/records/audit/purge-old-audit-events";
import { purgeWebhookLogs } from "@/lib/flows/webhooks/purge-webhook-logs";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { purgeExpiredMetadata } from "./purge-expired-metadata";
import { METADATA_PURGE_CHUNK } from "./purge-workspace-metadata";
import { rowsLeft, seedMail, setRetention } from "./testing";

const DAY = 24 * 3600 * 1000;

/** The hourly job's retention steps, in its order, "now" moved `days` ahead. */
async function purgeAfter(days: number) {
  const later = new Date(Date.now() + days * DAY);
  setClock(() => later);
  await purgeExpiredMetadata();
  await purgeMessageContent();
  await purgeInboundContent();
  await purgeWebhookLogs(later);
  await purgeOldAuditEvents({ now: later });
}

afterEach(() => setClock(null));

const everything = {
  messages: 2,
  events: 1,
  recipients: 2,
  webhookEvents: 2, // the recorded event's outbox row and the seeded one
  webhookDeliveries: 1,
  webhookAttempts: 1,
  inbound: 1,
  threads: 1,
  batches: 2,
  workflowRuns: 2,
  dmarcReports: 1,
};

describe("metadata retention per workspace", () => {
  it("a workspace with a 7-day window loses its rows after 7 days; one with 90 keeps them; a waiting message stays", async () => {
    const { workspace: short } = await createTestWorkspace();
    const { workspace: long } = await createTestWorkspace();
    await setRetention(short.id, { bodyRetentionDays: 3, metadataRetentionDays: 7 });
    await setRetention(long.id, { metadataRetentionDays: 90 });
    const shortMail = await seedMail(short.id);
    await seedMail(long.id);

    await purgeAfter(6);
    expect(await rowsLeft(short.id)).toEqual(everything);

    await purgeAfter(8);
    expect(await rowsLeft(short.id)).toEqual({
      ...everything,
      messages: 1, // the one still waiting for delivery
      events: 0,
      recipients: 1,
      webhookEvents: 0,
      webhookDeliveries: 0,
      webhookAttempts: 0,
      inbound: 0,
      threads: 0,
      batches: 1, // the waiting message's
      workflowRuns: 1, // the run still waiting for a step
      dmarcReports: 0,
    });
    const [waiting] = await (
      await getDb()
    )
      .select({ id: emailMessages.id })
      .from(emailMessages)
      .where(eq(emailMessages.workspaceId, short.id));
    expect(waiting.id).toBe(shortMail.waiting);
    expect(await rowsLeft(long.id)).toEqual(everything);

    await purgeAfter(91);
    expect(await rowsLeft(long.id)).toMatchObject({
      messages: 1,
      events: 0,
      inbound: 0,
      threads: 0,
      webhookEvents: 0,
      batches: 1,
      workflowRuns: 1,
      dmarcReports: 0,
    });
  }, 120_000); // many purge runs over the file's workspaces: a budget for a busy machine, not a timing claim

  it("bodies go on the body window while the row stays until the metadata window", async () => {
    const { workspace } = await createTestWorkspace();
    await setRetention(workspace.id, { bodyRetentionDays: 3, metadataRetentionDays: 7 });
    const { sent } = await seedMail(workspace.id);
    await purgeAfter(4);
    const [row] = await (
      await getDb()
    )
      .select({ bodyHtml: emailMessages.bodyHtml, purgedAt: emailMessages.contentPurgedAt })
      .from(emailMessages)
      .where(eq(emailMessages.id, sent));
    expect(row.bodyHtml).toBe("");
    expect(row.purgedAt).toBeInstanceOf(Date);
    expect(await rowsLeft(workspace.id)).toEqual(everything);
  });

  it("deletes a backlog larger than one chunk, oldest first, all of it", async () => {
    const { workspace } = await createTestWorkspace();
    await setRetention(workspace.id, { bodyRetentionDays: 1, metadataRetentionDays: 7 });
    const base = Date.now() - 30 * DAY;
    const rows = Array.from({ length: METADATA_PURGE_CHUNK + 20 }, (_, index) => {
      const createdAt = new Date(base + index);
      return {
        id: newId("message", createdAt),
        workspaceId: workspace.id,
        source: "API" as const,
        sandbox: false,
        status: "SUCCEEDED" as const,
        to: ["a@example.org"],
        from: "hello@example.com",
        subject: "Hi",
        bodyHtml: "<p>x</p>",
        bodyText: "x",
        createdAt,
        updatedAt: createdAt,
      };
    });
    await (await getDb()).insert(emailMessages).values(rows);
    const { deleted } = await purgeExpiredMetadata();
    expect(deleted).toBeGreaterThanOrEqual(rows.length);
    expect((await rowsLeft(workspace.id)).messages).toBe(0);
  });
});

describe("legal hold", () => {
  it("suspends every purge of the workspace: bodies, metadata, webhook logs, audit; lifted, the purges catch up", async () => {
    const { workspace } = await createTestWorkspace();
    await setRetention(workspace.id, { bodyRetentionDays: 3, metadataRetentionDays: 7, legalHold: true });
    const { sent } = await seedMail(workspace.id);

    await purgeAfter(400);
    expect(await rowsLeft(workspace.id)).toEqual(everything);
    const [row] = await (
      await getDb()
    )
      .select({ bodyHtml: emailMessages.bodyHtml })
      .from(emailMessages)
      .where(eq(emailMessages.id, sent));
    expect(row.bodyHtml).toBe("<p>x</p>");
    expect(await (await getDb()).$count(auditEvents, eq(auditEvents.workspaceId, workspace.id))).toBeGreaterThan(0);

    await setRetention(workspace.id, { legalHold: false });
    await purgeAfter(400);
    expect(await rowsLeft(workspace.id)).toMatchObject({ messages: 1, events: 0, inbound: 0, webhookEvents: 0 });
  });
});
