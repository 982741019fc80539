import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { domains } from "@/db/schema";
import { getAttachmentStorage } from "@/lib/domain/attachments/storage";
import { createResolver } from "@/lib/domain/domains/verify-domain";
import type { InboundMessageRow } from "@/lib/domain/inbound/serialize-inbound-message";
import type { ActionResult } from "@/lib/flows/inbound/actions/forward-inbound";
import { DMARC_ATTACHMENT_MAX_BYTES, readDmarcAttachment, type ReadOutcome } from "./read-report";
import { storeDmarcReport } from "./store-dmarc-report";

/**
 * An inbound route's `dmarc` action (docs/deliverability.md#dmarc-reports): each attachment of the stored mail read as
 * DMARC aggregate reports (XML, gzip or zip, decompressed within bounds), and each report for one of the workspace's
 * sending domains stored once. What was refused, and why, is the action's result.
 */
export async function ingestDmarcReports(inbound: InboundMessageRow, index: number): Promise<ActionResult> {
  const outcomes = await readAttachments(inbound);
  const owned = new Map(
    (
      await (
        await getDb()
      )
        .select({ id: domains.id, name: domains.name })
        .from(domains)
        .where(eq(domains.workspaceId, inbound.workspaceId))
    ).map((domain) => [domain.name, domain.id]),
  );
  const resolver = createResolver();
  const refused = outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.reason]));
  let stored = 0;
  let repeated = 0;
  for (const outcome of outcomes) {
    if (!outcome.ok) continue;
    const domainId = owned.get(outcome.report.domain);
    if (!domainId) {
      refused.push(`a report for ${outcome.report.domain}, which is not a sending domain of this workspace`);
      continue;
    }
    const target = { workspaceId: inbound.workspaceId, domainId, inboundMessageId: inbound.id };
    if (await storeDmarcReport(outcome.report, target, resolver)) stored++;
    else repeated++;
  }
  const status = stored + repeated > 0 ? "stored" : "failed";
  return {
    index,
    type: "dmarc",
    status,
    reports: stored,
    ...(repeated ? { repeated } : {}),
    ...(refused.length ? { refused } : {}),
    ...(status === "failed" ? { reason: refused[0] ?? "no DMARC report in the mail" } : {}),
  };
}

async function readAttachments(inbound: InboundMessageRow): Promise<ReadOutcome[]> {
  const storage = await getAttachmentStorage();
  const outcomes: ReadOutcome[] = [];
  for (const file of inbound.attachments) {
    if (file.size > DMARC_ATTACHMENT_MAX_BYTES) {
      outcomes.push({
        ok: false,
        reason: `${file.filename}: over ${DMARC_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB, not read`,
      });
      continue;
    }
    const content = await storage.read(file.storageKey);
    if (!content) continue;
    outcomes.push(...readDmarcAttachment({ filename: file.filename, contentType: file.contentType, content }));
  }
  return outcomes;
}
