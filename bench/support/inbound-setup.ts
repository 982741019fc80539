/**
 * The setting of `npm run bench:inbound` (and of its smoke test): a workspace with the verified inbound domain
 * (DOMAIN_VERIFICATION=off), a route for support@ whose action is a webhook (every stored mail enqueues
 * email.received), and the sent messages the mails reply to; then what the listener stored, counted.
 */
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { rowsOf } from "@/db/column-rows";
import { emailMessageLogs, emailMessages, inboundMessages, webhookEvents } from "@/db/schema";
import { addInboundDomain } from "@/lib/domain/inbound/add-inbound-domain";
import { createInboundRoute } from "@/lib/domain/inbound/create-inbound-route";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { CUSTOMER_DOMAIN, INBOUND_ADDRESS, INBOUND_DOMAIN, sentMessageId } from "./inbound-mail";

/** The workspace, its inbound domain and webhook route, and `sent` SUCCEEDED messages (mail i replies to the i-th). */
export async function setupInboundBench(sent: number): Promise<{ workspaceId: string }> {
  const { workspace } = await createTestWorkspace({ name: "Inbound bench" });
  const domain = await addInboundDomain({ workspaceId: workspace.id, name: INBOUND_DOMAIN });
  if (domain.status !== "VERIFIED") throw new Error("the bench needs DOMAIN_VERIFICATION=off");
  await createInboundRoute(
    workspace.id,
    { pattern: INBOUND_ADDRESS, actions: [{ type: "webhook" }] },
    AUDIT_SYSTEM_ACTOR,
  );
  const db = await getDb();
  const sentAt = new Date(Date.now() - 3_600_000);
  for (let start = 0; start < sent; start += 500) {
    await db.insert(emailMessages).values(
      Array.from({ length: Math.min(500, sent - start) }, (_, offset) => {
        const i = start + offset;
        const customer = `customer${i % 500}@${CUSTOMER_DOMAIN}`;
        return {
          id: sentMessageId(i),
          workspaceId: workspace.id,
          source: "API" as const,
          sandbox: false,
          status: "SUCCEEDED" as const,
          to: [`Customer <${customer}>`],
          toAddresses: [customer],
          from: "Shop <hello@example.com>",
          subject: `Your order ${10_000 + i} has shipped`,
          bodyHtml: "<p>It shipped.</p>",
          bodyText: "It shipped.",
          createdAt: sentAt,
          updatedAt: sentAt,
          processedAt: sentAt,
          sentAt,
        };
      }),
    );
  }
  return { workspaceId: workspace.id };
}

/** What the listener stored for the workspace: mails, their email.received events, replies linked, SPF+DKIM+DMARC passes. */
export async function countStored(workspaceId: string) {
  const db = await getDb();
  const passed = and(
    eq(inboundMessages.workspaceId, workspaceId),
    eq(inboundMessages.spf, "pass"),
    eq(inboundMessages.dkim, "pass"),
    eq(inboundMessages.dmarc, "pass"),
  );
  return {
    stored: await db.$count(inboundMessages, eq(inboundMessages.workspaceId, workspaceId)),
    received: await db.$count(
      webhookEvents,
      and(eq(webhookEvents.workspaceId, workspaceId), eq(webhookEvents.type, "email.received")),
    ),
    replied: await db.$count(
      emailMessageLogs,
      and(eq(emailMessageLogs.workspaceId, workspaceId), eq(emailMessageLogs.code, "EMAIL_MESSAGE_REPLIED")),
    ),
    authPassed: await db.$count(inboundMessages, passed),
    ...(await storedSize()),
  };
}

/** The mail's tables (every day partition, and the dedupe keys) on disk with their TOAST and indexes, and the compression the raw bytes were written with. */
async function storedSize(): Promise<{ tableBytes: number; compression: string }> {
  const [row] = rowsOf(
    await (
      await getDb()
    ).execute(sql`select (select sum(pg_total_relation_size(relid)) from (
          select relid from pg_partition_tree('inbound_messages') union all select relid from pg_partition_tree('inbound_message_raw')
          union all select 'inbound_dedupe_keys'::regclass) t)
        as bytes, (select pg_column_compression(raw) from inbound_message_raw limit 1) as compression`),
  ) as Array<{ bytes: string | number; compression: string }>;
  return { tableBytes: Number(row.bytes), compression: row.compression };
}
