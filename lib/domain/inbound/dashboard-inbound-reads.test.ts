import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { inboundMessages } from "@/db/schema";
import { getAttachmentStorage, storageKey } from "@/lib/domain/attachments/storage";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import {
  getInboundForDashboard,
  listInboundForDashboard,
  readInboundAttachmentForDashboard,
  type InboundDashboardQuery,
} from "./dashboard-inbound-reads";

async function insertInbound(workspaceId: string, values: Partial<typeof inboundMessages.$inferInsert> = {}) {
  const createdAt = values.createdAt ?? new Date();
  const id = newId("inboundMessage", createdAt);
  await (await getDb()).insert(inboundMessages).values({
    id,
    workspaceId,
    recipient: "support@in.example.com",
    fromAddress: "Ada@Example.org",
    subject: "Hello",
    textBody: "Hello there",
    dedupeKey: id,
    createdAt,
    ...values,
  });
  return id;
}

const query = (values: Partial<InboundDashboardQuery> = {}): InboundDashboardQuery => ({
  limit: 50,
  cursor: null,
  createdAt: {},
  ...values,
});

describe("the dashboard's inbound reads", () => {
  it("lists newest first without the bodies, filtered by address, status, checks, original message and day", async () => {
    const { workspace } = await createTestWorkspace();
    const other = await createTestWorkspace();
    const base = Date.now() - 3_600_000;
    const first = await insertInbound(workspace.id, { createdAt: new Date(base), dmarc: "pass" });
    const second = await insertInbound(workspace.id, {
      createdAt: new Date(base + 1000),
      recipient: "sales@in.example.com",
      fromAddress: "bob@example.net",
      status: "QUARANTINED",
      dmarc: "fail",
      originalMessageId: "em_0123456789abcdef",
    });
    await insertInbound(other.workspace.id);

    const all = await listInboundForDashboard(workspace.id, query());
    expect(all.items.map((row) => row.id)).toEqual([second, first]);
    expect(all.items[0]).not.toHaveProperty("textBody");
    const ids = async (values: Partial<InboundDashboardQuery>) =>
      (await listInboundForDashboard(workspace.id, query(values))).items.map((row) => row.id);
    expect(await ids({ address: "ada@example.org" })).toEqual([first]);
    expect(await ids({ address: "sales@in.example.com" })).toEqual([second]);
    expect(await ids({ status: "QUARANTINED" })).toEqual([second]);
    expect(await ids({ dmarc: "pass" })).toEqual([first]);
    expect(await ids({ originalMessageId: "em_0123456789abcdef" })).toEqual([second]);
    expect(await ids({ createdAt: { lt: new Date(base + 500) } })).toEqual([first]);

    const page = await listInboundForDashboard(workspace.id, query({ limit: 1 }));
    expect(page.meta["cursor.after"]).toBe(second);
    const next = await listInboundForDashboard(
      workspace.id,
      query({ limit: 1, cursor: { direction: "after", id: second } }),
    );
    expect(next.items.map((row) => row.id)).toEqual([first]);
  });

  it("reads one message and its attachments in its own workspace only", async () => {
    const { workspace } = await createTestWorkspace();
    const other = await createTestWorkspace();
    const attachmentId = newId("inboundAttachment");
    const key = storageKey(workspace.id, attachmentId);
    await (
      await getAttachmentStorage()
    )
      .receive?.(key, new Blob(["a,b\n1,2\n"]).stream(), 1024)
      .then((staged) => staged.commit());
    const id = await insertInbound(workspace.id, {
      attachments: [
        {
          id: attachmentId,
          filename: "rows.csv",
          contentType: "text/csv",
          size: 8,
          contentId: null,
          inline: false,
          storageKey: key,
        },
      ],
    });

    expect((await getInboundForDashboard(workspace.id, id))?.textBody).toBe("Hello there");
    expect(await getInboundForDashboard(other.workspace.id, id)).toBeNull();
    expect(await getInboundForDashboard(workspace.id, "inm_\u0000")).toBeNull();
    const file = await readInboundAttachmentForDashboard(workspace.id, id, attachmentId);
    expect(file?.file.filename).toBe("rows.csv");
    expect(file?.bytes.toString()).toBe("a,b\n1,2\n");
    expect(await readInboundAttachmentForDashboard(other.workspace.id, id, attachmentId)).toBeNull();
    expect(await readInboundAttachmentForDashboard(workspace.id, id, "inatt_0000000000000000")).toBeNull();
  });
});
