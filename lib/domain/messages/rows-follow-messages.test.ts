import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessageLogs, emailMessageRecipients, emailMessages, workspaces } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";

/**
 * A message's events and recipient rows carry its workspace_id without a foreign key to workspaces
 * (migrations 0011 and 0012: one key-share lock of the workspace row less per accepted row). They
 * must still follow their message: gone with it, and with its workspace.
 */
async function messageWithRows(workspaceId: string) {
  const db = await getDb();
  const id = await insertTestMessage(workspaceId, { toAddresses: ["ada@example.org", "bob@example.org"] });
  await db
    .insert(emailMessageLogs)
    .values({ id: newId("event"), workspaceId, emailMessageId: id, code: "CREATED", message: "Created" });
  return id;
}

async function rowsOf(messageIds: string[]) {
  const db = await getDb();
  const recipients = await db
    .select()
    .from(emailMessageRecipients)
    .where(inArray(emailMessageRecipients.emailMessageId, messageIds));
  const logs = await db.select().from(emailMessageLogs).where(inArray(emailMessageLogs.emailMessageId, messageIds));
  return { recipients: recipients.length, logs: logs.length };
}

describe("rows that follow their message", () => {
  it("a deleted message takes its recipient rows and events along; its neighbours keep theirs", async () => {
    const { workspace } = await createTestWorkspace();
    const gone = await messageWithRows(workspace.id);
    const kept = await messageWithRows(workspace.id);
    expect(await rowsOf([gone])).toEqual({ recipients: 2, logs: 1 });

    await (await getDb()).delete(emailMessages).where(eq(emailMessages.id, gone));

    expect(await rowsOf([gone])).toEqual({ recipients: 0, logs: 0 });
    expect(await rowsOf([kept])).toEqual({ recipients: 2, logs: 1 });
  });

  it("a deleted workspace takes its messages' recipient rows and events along, and no other workspace's", async () => {
    const { workspace } = await createTestWorkspace();
    const { workspace: other } = await createTestWorkspace();
    const gone = [await messageWithRows(workspace.id), await messageWithRows(workspace.id)];
    const kept = await messageWithRows(other.id);

    await (await getDb()).delete(workspaces).where(eq(workspaces.id, workspace.id));

    expect(await rowsOf(gone)).toEqual({ recipients: 0, logs: 0 });
    expect(await rowsOf([kept])).toEqual({ recipients: 2, logs: 1 });
  });

  it("an event still needs its message: the message's key is kept", async () => {
    const { workspace } = await createTestWorkspace();
    const db = await getDb();
    const insertOrphan = db.execute(
      sql`insert into email_message_logs (id, workspace_id, email_message_id, code, message) values (${newId("event")}, ${workspace.id}, 'em_0000000000000000', 'CREATED', 'x')`,
    );
    await expect(insertOrphan).rejects.toMatchObject({ cause: expect.objectContaining({ code: "23503" }) }); // foreign_key_violation
  });
});
