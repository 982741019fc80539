import "server-only";
import type { Resolver } from "node:dns/promises";
import { getDb } from "@/db/client";
import { dmarcReportRecords, dmarcReports } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import type { DmarcReport } from "./dmarc-report";

/** Reverse lookups per report at most: a report naming thousands of sources keeps the rest unnamed. */
const REVERSE_LOOKUPS_MAX = 100;

/**
 * One report for one of the workspace's domains, with its rows, in one transaction; the same reporter and report id
 * again (a resent report, a retried job) stores nothing more. Answers whether it was new.
 */
export async function storeDmarcReport(
  report: DmarcReport,
  target: { workspaceId: string; domainId: string; inboundMessageId: string },
  resolver: Resolver,
): Promise<boolean> {
  const names = await reverseNames(resolver, report);
  const id = newId("dmarcReport");
  return (await getDb()).transaction(async (tx) => {
    const [row] = await tx
      .insert(dmarcReports)
      .values({
        id,
        ...target,
        orgName: report.orgName,
        email: report.email,
        reportId: report.reportId,
        beginAt: report.begin,
        endAt: report.end,
        policy: report.policy,
        subdomainPolicy: report.subdomainPolicy,
        pct: report.pct,
        adkim: report.adkim,
        aspf: report.aspf,
        messageCount: report.records.reduce((sum, record) => sum + record.count, 0),
      })
      .onConflictDoNothing()
      .returning({ id: dmarcReports.id });
    if (!row) return false;
    // In slices: a parameter list has a ceiling, and a report may carry thousands of rows.
    for (let start = 0; start < report.records.length; start += 1000) {
      await tx.insert(dmarcReportRecords).values(
        report.records.slice(start, start + 1000).map((record, offset) => ({
          reportId: id,
          position: start + offset,
          workspaceId: target.workspaceId,
          ...record,
          reverseDns: names.get(record.sourceIp) ?? null,
        })),
      );
    }
    return true;
  });
}

/** Each distinct source's first PTR name, looked up side by side; a failed lookup leaves it unnamed. */
async function reverseNames(resolver: Resolver, report: DmarcReport): Promise<Map<string, string>> {
  const sources = [...new Set(report.records.map((record) => record.sourceIp))].slice(0, REVERSE_LOOKUPS_MAX);
  const names = new Map<string, string>();
  await Promise.all(
    sources.map(async (ip) => {
      try {
        const [name] = await resolver.reverse(ip);
        if (name) names.set(ip, name.toLowerCase().replace(/\.$/, ""));
      } catch {
        // NXDOMAIN, a timeout, a malformed address: unnamed.
      }
    }),
  );
  return names;
}
