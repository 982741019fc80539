import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { inboundMessages } from "@/db/schema";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { startInboundServer, type InboundServer } from "./inbound-server";
import { inboundClient } from "./testing";

/**
 * Concurrent SMTP sessions: their mails may share a group's transaction (lib/flows/inbound/receive/), yet each session
 * hears 250 only once its own mail is stored, and the same mail in two sessions at once is stored once.
 */
const DOMAIN = "in-concurrent.test";
let listener: InboundServer;
let dns: TestDnsServer;

beforeAll(async () => {
  dns = await startDnsServer();
  useSettings({ DNS_SERVERS: `127.0.0.1:${dns.port}` });
  listener = await startInboundServer({
    port: 0,
    host: "127.0.0.1",
    bounceDomain: null,
    maxBytes: 1024 * 1024,
    maxConnections: 20,
    timeoutMs: 10_000,
  });
});
afterAll(async () => {
  await listener.close();
  await dns.close();
  useSettings({ DNS_SERVERS: undefined });
});

const mail = (id: string) =>
  [
    "From: Ada <ada@sender.test>",
    `To: support@${DOMAIN}`,
    `Subject: Session ${id}`,
    `Message-ID: <${id}@sender.test>`,
    "",
    `Mail ${id}.`,
    "",
  ].join("\r\n");

describe("the inbound listener with concurrent sessions", () => {
  it("answers each session 250 after its own mail is stored, and stores the same mail sent twice at once once", async () => {
    const { workspace } = await createTestWorkspace();
    const { route } = await addTestInboundDomain(workspace.id, DOMAIN);
    await route({ pattern: `support@${DOMAIN}`, actions: [{ type: "webhook" }] });
    const db = await getDb();
    const storedNow = async (id: string) =>
      (
        await db
          .select({ id: inboundMessages.id })
          .from(inboundMessages)
          .where(
            and(
              eq(inboundMessages.workspaceId, workspace.id),
              eq(inboundMessages.messageIdHeader, `<${id}@sender.test>`),
            ),
          )
      ).length;
    const send = async (id: string) => {
      const client = inboundClient(listener.port);
      try {
        const info = await client.sendMail({
          envelope: { from: "ada@sender.test", to: [`support@${DOMAIN}`] },
          raw: mail(id),
        });
        // Read at once when the 250 arrives: it means stored.
        return { response: info.response, stored: await storedNow(id) };
      } finally {
        client.close();
      }
    };
    const ids = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "twice", "twice"];
    const results = await Promise.all(ids.map((id) => send(id)));
    for (const result of results) {
      expect(result.response).toMatch(/^250 /);
      expect(result.stored).toBe(1);
    }
    const twice = results.slice(-2).map((result) => result.response);
    expect(twice.filter((response) => /\(1 stored, 0 already stored\)/.test(response))).toHaveLength(1);
    expect(twice.filter((response) => /\(0 stored, 1 already stored\)/.test(response))).toHaveLength(1);
    const rows = await db.select().from(inboundMessages).where(eq(inboundMessages.workspaceId, workspace.id));
    expect(rows.map((row) => row.subject).sort()).toEqual([...new Set(ids)].map((id) => `Session ${id}`).sort());
  });
});
