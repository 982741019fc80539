import fs from "node:fs";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { attachments } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { createAttachment } from "./create-attachment";
import { purgeExpiredAttachments } from "./purge-expired-attachments";
import { uploadAttachment, withStorageEnv } from "./testing";

const storage = withStorageEnv({ ATTACHMENT_RETENTION_DAYS: "7" });
const DAY = 24 * 60 * 60 * 1000;

async function age(id: string, field: "uploadedAt" | "createdAt", days: number) {
  await (
    await getDb()
  )
    .update(attachments)
    .set({ [field]: new Date(Date.now() - days * DAY) })
    .where(eq(attachments.id, id));
}

describe("purgeExpiredAttachments", () => {
  it("deletes the bytes and records older than ATTACHMENT_RETENTION_DAYS, in batches, and keeps the rest", async () => {
    const ws = await createTestWorkspace();
    const upload = (text: string) => uploadAttachment(ws.workspace.id, ws.key.id, Buffer.from(text));
    const expired = [await upload("old 1"), await upload("old 2"), await upload("old 3")];
    for (const attachment of expired) await age(attachment.id, "uploadedAt", 7.01);
    const recent = await upload("six days old");
    await age(recent.id, "uploadedAt", 6.9);
    // Created long ago but uploaded recently (an old upload URL is impossible, yet the upload time counts).
    const fresh = await upload("fresh");
    await age(fresh.id, "createdAt", 30);
    const neverUploaded = (
      await createAttachment({ workspaceId: ws.workspace.id, credential: ws.key.id, body: undefined })
    ).attachment;
    await age(neverUploaded.id, "createdAt", 8);
    const pendingRecent = (
      await createAttachment({ workspaceId: ws.workspace.id, credential: ws.key.id, body: undefined })
    ).attachment;

    const file = (id: string) => path.join(storage.dir(), "attachments", ws.workspace.id, id);
    expect(fs.existsSync(file(expired[0].id))).toBe(true);

    expect(await purgeExpiredAttachments({ batchSize: 2 })).toEqual({ purged: 4 });
    const left = await (
      await getDb()
    )
      .select({ id: attachments.id })
      .from(attachments)
      .where(eq(attachments.workspaceId, ws.workspace.id));
    expect(left.map((row) => row.id).sort()).toEqual([recent.id, fresh.id, pendingRecent.id].sort());
    for (const attachment of expired) expect(fs.existsSync(file(attachment.id))).toBe(false);
    expect(fs.readFileSync(file(recent.id), "utf8")).toBe("six days old");

    // Idempotent, and `now` moves the cutoff.
    expect(await purgeExpiredAttachments()).toEqual({ purged: 0 });
    expect(await purgeExpiredAttachments({ now: new Date(Date.now() + 7.5 * DAY) })).toEqual({ purged: 3 });
    const rows = await (
      await getDb()
    )
      .select()
      .from(attachments)
      .where(inArray(attachments.id, [recent.id, fresh.id, pendingRecent.id]));
    expect(rows).toHaveLength(0);
    expect(fs.existsSync(file(recent.id))).toBe(false);
  });
});
