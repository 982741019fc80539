import { eq, sql } from "drizzle-orm";
import { rowsOf } from "@/lib/flows/webhooks/rows";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, inboundMessages } from "@/db/schema";
import { findInboundRecipient } from "@/lib/domain/inbound/find-recipient";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { receiveInboundMail } from "@/lib/flows/inbound/receive/receive-inbound-mail";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { runInboundActions } from "./run-inbound-actions";

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
  useSettings({ DNS_SERVERS: `127.0.0.1:${dns.port}` });
});
afterAll(async () => {
  useSettings({ DNS_SERVERS: undefined });
  await dns.close();
});

/** Receives a mail carrying `hops` loop headers at `to`, then runs its job as the worker would. */
async function receiveAndRun(to: string, hops: number, subject: string) {
  const lookup = await findInboundRecipient(await getDb(), to);
  if (!lookup.ok) throw new Error(lookup.message);
  const raw = Buffer.from(
    [
      ...Array.from({ length: hops }, () => "X-Postwerk-Loop: forwarded"),
      "From: Ada <ada@sender.test>",
      `To: ${to}`,
      `Subject: ${subject}`,
      `Message-ID: <loop-${hops}-${to}@sender.test>`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Please help.",
    ].join("\r\n"),
  );
  const envelope = { mailFrom: "ada@sender.test", ip: "192.0.2.1", helo: "h", recipients: [lookup.recipient] };
  const { stored } = await receiveInboundMail(raw, envelope);
  const workspaceId = lookup.recipient.workspaceId;
  return { id: stored[0], results: await runInboundActions({ workspaceId, inboundMessageId: stored[0] }) };
}

describe("runInboundActions", () => {
  it("forwards through the accept path once per action (a retry sends nothing new), Fwd: not doubled, loop count carried", async () => {
    const { workspace } = await createTestWorkspace();
    const { route } = await addTestInboundDomain(workspace.id, "fwd-once.test");
    await route({ pattern: "support@fwd-once.test", actions: [{ type: "forward", to: "team@elsewhere.test" }] });
    const { id, results } = await receiveAndRun("support@fwd-once.test", 1, "Fwd: Broken");
    // Stored with its job in the one transaction: the worker's queue holds it.
    const jobs = rowsOf<{ n: number }>(
      await (
        await getDb()
      ).execute(
        sql`select count(*)::int as n from pgboss.job where name = 'inbound-actions' and data->>'inboundMessageId' = ${id}`,
      ),
    );
    expect(jobs[0].n).toBe(1);
    expect(results).toEqual([
      { index: 0, type: "forward", to: "team@elsewhere.test", status: "sent", emailMessageId: expect.any(String) },
    ]);
    const again = await runInboundActions({ workspaceId: workspace.id, inboundMessageId: id });
    expect(again[0].emailMessageId).toBe(results[0].emailMessageId);
    const db = await getDb();
    const sent = await db.select().from(emailMessages).where(eq(emailMessages.workspaceId, workspace.id));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ subject: "Fwd: Broken", to: ["team@elsewhere.test"], bodyText: "Please help." });
    expect(sent[0].headers).toMatchObject({ "x-postwerk-loop": "2" });
    const [row] = await db.select().from(inboundMessages).where(eq(inboundMessages.id, id));
    expect(row.actionResults).toEqual(again);
  });

  it("a forward to a route that forwards back stops at the hop limit, saying why", async () => {
    const a = await createTestWorkspace();
    const b = await createTestWorkspace();
    await (
      await addTestInboundDomain(a.workspace.id, "ping.test")
    ).route({
      pattern: "loop@ping.test",
      actions: [{ type: "forward", to: "loop@pong.test" }],
    });
    await (
      await addTestInboundDomain(b.workspace.id, "pong.test")
    ).route({
      pattern: "loop@pong.test",
      actions: [{ type: "forward", to: "loop@ping.test" }],
    });
    const db = await getDb();
    // Each forward's sent message arrives at the other route with the loop count it carries.
    let hops = 0;
    let to = "loop@ping.test";
    for (;;) {
      const { results } = await receiveAndRun(to, hops, "Loop");
      if (results[0].status !== "sent") {
        expect(results[0]).toMatchObject({ status: "skipped", reason: expect.stringContaining("limit 5") });
        break;
      }
      const [forward] = await db
        .select()
        .from(emailMessages)
        .where(eq(emailMessages.id, results[0].emailMessageId as string));
      hops = Number(forward.headers["x-postwerk-loop"]);
      to = forward.to[0];
    }
    expect(hops).toBe(5);
  });
});
