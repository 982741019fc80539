import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, localInbox } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { purgeMessageContent } from "./purge-message-content";
import { recordEvent } from "@/lib/records/timeline/record-event";

const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000);

const content = {
  subject: "Order 7",
  bodyHtml: "<p>Secret</p>",
  bodyText: "Secret",
  variables: { code: "1234" },
  metadata: { order: 7 },
  attachments: [{ name: "a.txt", contentType: "text/plain", size: 3, contentBase64: "YWJj" }],
};

async function oldMessage(
  workspaceId: string,
  status: "SUCCEEDED" | "FAILED" | "PENDING" | "PAUSED",
  createdAt = daysAgo(31),
) {
  const id = await insertTestMessage(workspaceId, {
    ...content,
    status,
    createdAt,
    sentAt: status === "SUCCEEDED" ? createdAt : null,
  });
  if (status === "SUCCEEDED") {
    await recordEvent(await getDb(), {
      workspaceId,
      messageId: id,
      code: "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
      message: "Sent.",
      at: createdAt,
    });
    await (await getDb()).insert(localInbox).values({
      emailMessageId: id,
      workspaceId,
      envelopeFrom: "hello@example.com",
      envelopeTo: ["ada@example.org"],
      mime: "Subject: Order 7\r\n\r\nSecret",
      createdAt,
    });
  }
  return id;
}

describe("purgeMessageContent (RETENTION_DAYS = 30)", () => {
  it("purges old content, keeps subject, metadata and events; skips recent, PENDING and PAUSED messages", async () => {
    const { workspace } = await createTestWorkspace();
    const sent = await oldMessage(workspace.id, "SUCCEEDED");
    const failed = await oldMessage(workspace.id, "FAILED");
    const pending = await oldMessage(workspace.id, "PENDING");
    const paused = await oldMessage(workspace.id, "PAUSED");
    const recent = await oldMessage(workspace.id, "SUCCEEDED", daysAgo(29));

    const { purged } = await purgeMessageContent();
    expect(purged).toBeGreaterThanOrEqual(2);
    for (const id of [sent, failed]) {
      const state = await readMessageState(id);
      expect(state.message).toMatchObject({
        status: id === sent ? "SUCCEEDED" : "FAILED",
        subject: "Order 7",
        bodyHtml: "",
        bodyText: "",
        variables: {},
        metadata: { order: 7 },
      });
      expect(state.message.attachments).toEqual([{ name: "a.txt", contentType: "text/plain", size: 3 }]);
      expect(state.message.contentPurgedAt).toBeInstanceOf(Date);
      expect(state.inbox).toHaveLength(0);
    }
    expect((await readMessageState(sent)).codes).toEqual(["EMAIL_MESSAGE_SENT_PROVIDER_EVENT"]);
    for (const id of [pending, paused, recent]) {
      const state = await readMessageState(id);
      expect(state.message).toMatchObject({
        bodyHtml: "<p>Secret</p>",
        variables: { code: "1234" },
        contentPurgedAt: null,
      });
      expect(state.message.attachments[0].contentBase64).toBe("YWJj");
    }
    expect((await readMessageState(recent)).inbox).toHaveLength(1);
    expect(await purgeMessageContent()).toEqual({ purged: 0 });
  });

  it("walks past a full chunk of messages it must skip", async () => {
    const { workspace } = await createTestWorkspace();
    const base = daysAgo(40).getTime();
    const rows = Array.from({ length: 1105 }, (_, index) => {
      const createdAt = new Date(base + index);
      // The oldest 1,050 wait for delivery: a purge that did not move past them would stop there.
      const status = index < 1050 ? ("PAUSED" as const) : ("SUCCEEDED" as const);
      return {
        id: newId("message", createdAt),
        workspaceId: workspace.id,
        source: "API" as const,
        sandbox: false,
        status,
        to: ["a@example.org"],
        from: "hello@example.com",
        ...content,
        createdAt,
        updatedAt: createdAt,
      };
    });
    const db = await getDb();
    await db.insert(emailMessages).values(rows);
    await purgeMessageContent();
    const after = await db
      .select({ status: emailMessages.status, purgedAt: emailMessages.contentPurgedAt })
      .from(emailMessages)
      .where(
        inArray(
          emailMessages.id,
          rows.map((row) => row.id),
        ),
      );
    expect(after.filter((row) => row.purgedAt !== null)).toHaveLength(55);
    expect(after.filter((row) => row.purgedAt !== null).every((row) => row.status === "SUCCEEDED")).toBe(true);
  });
});
