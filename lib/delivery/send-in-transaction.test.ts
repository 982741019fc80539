import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, localInbox, webhookEvents } from "@/db/schema";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { deliverMessages } from "./deliver-batch";
import type { DeliveryProvider } from "./provider";
import { localProvider } from "./providers/local/local-provider";

const SENT = "EMAIL_MESSAGE_SENT_PROVIDER_EVENT";
const DELIVERED = "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT";

/** The local inbox, counting its calls, and refusing (by throwing) the messages named. */
function localInboxRefusing(refused: Set<string>): DeliveryProvider & { calls: string[] } {
  const calls: string[] = [];
  return {
    ...localProvider,
    calls,
    async send(mail, options) {
      calls.push(mail.messageId);
      if (refused.has(mail.messageId)) throw new Error(`the inbox refuses ${mail.messageId}`);
      return localProvider.send(mail, options);
    },
  };
}

async function messages(count: number) {
  const { workspace } = await createTestWorkspace();
  const ids: string[] = [];
  for (let index = 0; index < count; index++)
    ids.push(await insertTestMessage(workspace.id, { subject: `Receipt ${index}` }));
  return { workspaceId: workspace.id, ids };
}

function deliver(workspaceId: string, ids: string[], provider: DeliveryProvider) {
  return deliverMessages(
    ids.map((messageId) => ({ job: { workspaceId, messageId }, context: { attempt: 0, provider } })),
  );
}

describe("transactional providers deliver a batch in one transaction", () => {
  it("sends and records every message of the batch as one message alone would be", async () => {
    const { workspaceId, ids } = await messages(5);
    const [alone] = ids.splice(0, 1);
    expect(await deliver(workspaceId, [alone], localProvider)).toEqual([null]);
    expect(await deliver(workspaceId, ids, localProvider)).toEqual([null, null, null, null]);

    const single = await readMessageState(alone);
    for (const id of ids) {
      const { message, events, codes, inbox } = await readMessageState(id);
      expect(message.status).toBe("SUCCEEDED");
      expect(codes).toEqual([SENT, DELIVERED]);
      expect(events.map((event) => event.message.replace(/at .*\.$/, "at …."))).toEqual(
        single.events.map((event) => event.message.replace(/at .*\.$/, "at ….")),
      );
      expect(message.referenceId).toBe(`<${id}@${message.referenceId!.split("@")[1]}`);
      expect(message.sentAt!.getTime()).toBeLessThan(message.deliveredAt!.getTime());
      expect(inbox).toHaveLength(1);
    }
    const db = await getDb();
    const webhookRows = await db
      .select({ type: webhookEvents.type })
      .from(webhookEvents)
      .where(inArray(webhookEvents.emailMessageId, ids));
    expect(webhookRows.map((row) => row.type).sort()).toEqual(
      [...ids.map(() => "email.delivered"), ...ids.map(() => "email.sent")].sort(),
    );
  });

  it("leaves a message another run already sent, and sends the rest once", async () => {
    const { workspaceId, ids } = await messages(3);
    expect(await deliver(workspaceId, [ids[1]], localProvider)).toEqual([null]);
    const provider = localInboxRefusing(new Set());
    expect(await deliver(workspaceId, ids, provider)).toEqual([null, null, null]);
    expect(provider.calls).toEqual([ids[0], ids[2]]);
    for (const id of ids) {
      const { codes, inbox } = await readMessageState(id);
      expect(codes).toEqual([SENT, DELIVERED]);
      expect(inbox).toHaveLength(1);
    }
  });

  it("when one message fails the batch's transaction, sends the others one at a time and fails only that one", async () => {
    const { workspaceId, ids } = await messages(4);
    const provider = localInboxRefusing(new Set([ids[2]]));
    const outcomes = await deliver(workspaceId, ids, provider);
    expect(outcomes.map((outcome) => outcome?.message ?? null)).toEqual([
      null,
      null,
      `the inbox refuses ${ids[2]}`,
      null,
    ]);
    // Tried in the batch (rolled back: nothing of it stayed), then each alone.
    expect(provider.calls).toEqual([ids[0], ids[1], ids[2], ...ids]);
    const db = await getDb();
    const inbox = await db
      .select({ id: localInbox.emailMessageId })
      .from(localInbox)
      .where(inArray(localInbox.emailMessageId, ids));
    expect(inbox.map((row) => row.id).sort()).toEqual([ids[0], ids[1], ids[3]].sort());
    const [refused] = await db.select().from(emailMessages).where(eq(emailMessages.id, ids[2]));
    expect(refused).toMatchObject({ status: "PENDING", sentAt: null, deliveredAt: null });
    expect((await readMessageState(ids[2])).codes).toEqual([]);
  });
});
