import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { inboundMessageRaw, inboundMessages } from "@/db/schema";
import { findInboundRecipient } from "@/lib/domain/inbound/find-recipient";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { parseInbound } from "@/lib/flows/inbound/parse/parse-inbound";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { dedupeKey } from "./receive-inbound-mail";
import { storeInboundMessage } from "./store-inbound-message";

// Migration 0023: a received mail's bodies, headers and raw bytes are compressed with lz4 where the server has
// it (PostgreSQL built with lz4), and with pglz, the default, where it has not (PGlite).

/** Whether this database's server was built with lz4. */
async function serverHasLz4(): Promise<boolean> {
  const [row] = rowsOf(
    await (
      await getDb()
    ).execute(sql`select 'lz4' = any (enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`),
  ) as Array<{ lz4: boolean }>;
  return row.lz4;
}

/** A ~30 KB plain-text mail: long enough that its body and raw bytes are compressed into TOAST. */
async function largeMail(address: string) {
  const body = Array.from({ length: 600 }, (_, line) => `Line ${line} of a long reply about the order.`).join("\r\n");
  const raw = Buffer.from(
    ["From: Ada <ada@sender.test>", `To: ${address}`, "Subject: Long", "Message-ID: <long@sender.test>", "", body].join(
      "\r\n",
    ),
  );
  return { raw, parsed: await parseInbound(raw) };
}

describe("how a received mail's large columns are compressed", () => {
  it("lz4 where the server has it, else pglz; the bytes read back unchanged", async () => {
    const { workspace } = await createTestWorkspace();
    const { route } = await addTestInboundDomain(workspace.id, "compressed.test");
    await route({ pattern: "support@compressed.test", actions: [] });
    const lookup = await findInboundRecipient(await getDb(), "support@compressed.test");
    if (!lookup.ok) throw new Error(lookup.message);
    const { raw, parsed } = await largeMail(lookup.recipient.address);
    const envelope = {
      mailFrom: "ada@sender.test",
      ip: "192.0.2.10",
      helo: "sender.test",
      recipients: [lookup.recipient],
    };
    const id = await storeInboundMessage({
      raw,
      envelope,
      recipient: lookup.recipient,
      parsed,
      auth: { spf: "pass", dkim: "pass", dmarc: "pass", arc: "none", dmarcPolicy: null, details: {} },
      spam: { status: "not_checked", score: null, threshold: null, rules: [] },
      attachments: [],
      dedupeKey: dedupeKey(envelope.mailFrom, parsed.messageId, raw, lookup.recipient.address),
      quarantineReason: null,
    });
    expect(id).toMatch(/^inm_/);
    const db = await getDb();
    const [stored] = await db
      .select({
        raw: inboundMessageRaw.raw,
        rawCompression: sql<string>`pg_column_compression(${inboundMessageRaw.raw})`,
        text: inboundMessages.textBody,
        textCompression: sql<string>`pg_column_compression(${inboundMessages.textBody})`,
      })
      .from(inboundMessageRaw)
      .innerJoin(inboundMessages, eq(inboundMessages.id, inboundMessageRaw.inboundMessageId))
      .where(eq(inboundMessageRaw.inboundMessageId, id!));
    const expected = (await serverHasLz4()) ? "lz4" : "pglz";
    expect(stored.rawCompression).toBe(expected);
    expect(stored.textCompression).toBe(expected);
    expect(Buffer.from(stored.raw).equals(raw)).toBe(true);
    expect(stored.text).toBe(parsed.text);
  });
});
