import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, ts } from "./columns";
import { domains } from "./domains";
import { workspaces } from "./workspaces";

/**
 * DMARC aggregate reports (RFC 7489 §7.2) received by an inbound route's `dmarc` action
 * (docs/deliverability.md#dmarc-reports), for one of the workspace's sending domains. A report is stored once per
 * reporter and report id; its rows are per source IP.
 */
export const dmarcReports = pgTable(
  "dmarc_reports",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    domainId: text("domain_id")
      .notNull()
      .references(() => domains.id, { onDelete: "cascade" }),
    /** The mail it came in (inm_…); kept after that mail is purged. */
    inboundMessageId: text("inbound_message_id"),
    orgName: text("org_name").notNull(),
    email: text("email"),
    reportId: text("report_id").notNull(),
    beginAt: ts("begin_at").notNull(),
    endAt: ts("end_at").notNull(),
    policy: text("policy").notNull(),
    subdomainPolicy: text("subdomain_policy"),
    pct: integer("pct"),
    adkim: text("adkim"),
    aspf: text("aspf"),
    messageCount: integer("message_count").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("dmarc_reports_reporter_idx").on(t.workspaceId, t.orgName, t.reportId),
    index("dmarc_reports_domain_idx").on(t.domainId, t.endAt),
  ],
);

export const dmarcReportRecords = pgTable(
  "dmarc_report_records",
  {
    reportId: text("report_id")
      .notNull()
      .references(() => dmarcReports.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    workspaceId: text("workspace_id").notNull(),
    sourceIp: text("source_ip").notNull(),
    /** The source's reverse DNS name when it had one at ingestion, for telling known services from unknown senders. */
    reverseDns: text("reverse_dns"),
    count: integer("count").notNull(),
    disposition: text("disposition").notNull(),
    dkimAligned: boolean("dkim_aligned").notNull(),
    spfAligned: boolean("spf_aligned").notNull(),
    headerFrom: text("header_from").notNull(),
    dkimResult: text("dkim_result"),
    dkimDomain: text("dkim_domain"),
    spfResult: text("spf_result"),
    spfDomain: text("spf_domain"),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.position] })],
);
