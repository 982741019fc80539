// DMARC aggregate reports as the big receivers send them, for tests. Shaped after RFC 7489 Appendix C (the XML
// schema) and the providers' published report formats: Google (org google.com, a zip named
// google.com!<domain>!<begin>!<end>.zip, no namespace, no <version>), Microsoft/Outlook (org "Enterprise Outlook",
// a gzip named enterprise.protection.outlook.com!<domain>!<begin>!<end>.xml.gz, the dmarc-xml/0.1 namespace and a
// <version>) and Yahoo (org Yahoo, dmarchelp@yahooinc.com, a gzip). Each report has the same three stories: mail
// from the sender's relay passing both, a spoofer's unknown IP failing both, and a forwarder breaking SPF while
// DKIM survives.
import zlib from "node:zlib";
import { zipSync } from "fflate";

export const SENDER_DOMAIN = "example.com";
/** The sender's relay: Postwerk's outbound IP, signing with d=example.com and in the SPF record. */
export const RELAY_IP = "203.0.113.25";
/** A spoofer: nothing about it is the sender's. */
export const SPOOF_IP = "198.51.100.77";
/** A mailing list or forwarder: the DKIM signature survives, SPF checks the forwarder's IP. */
export const FORWARDER_IP = "192.0.2.140";
export const BEGIN = 1700000000;
export const END = 1700086399;

type Disposition = "none" | "quarantine" | "reject";

export interface FixtureRecord {
  sourceIp: string;
  count: number;
  disposition: Disposition;
  dkim: "pass" | "fail";
  spf: "pass" | "fail";
  headerFrom: string;
  dkimDomain: string;
  dkimResult: string;
  spfDomain: string;
  spfResult: string;
}

/** Passing, spoofed and forwarded mail under the given policy (what the receiver did to the failing one). */
export function fixtureRecords(policy: Disposition = "none"): FixtureRecord[] {
  const from = SENDER_DOMAIN;
  return [
    {
      sourceIp: RELAY_IP,
      count: 120,
      disposition: "none",
      dkim: "pass",
      spf: "pass",
      headerFrom: from,
      dkimDomain: from,
      dkimResult: "pass",
      spfDomain: `bounce.${from}`,
      spfResult: "pass",
    },
    {
      sourceIp: SPOOF_IP,
      count: 7,
      disposition: policy,
      dkim: "fail",
      spf: "fail",
      headerFrom: from,
      dkimDomain: "spoofer.test",
      dkimResult: "fail",
      spfDomain: "spoofer.test",
      spfResult: "fail",
    },
    {
      sourceIp: FORWARDER_IP,
      count: 3,
      disposition: "none",
      dkim: "pass",
      spf: "fail",
      headerFrom: from,
      dkimDomain: from,
      dkimResult: "pass",
      spfDomain: "lists.forwarder.test",
      spfResult: "softfail",
    },
  ];
}

function recordXml(record: FixtureRecord, options: { envelope: boolean; selector: boolean; scope: boolean }): string {
  const envelope = options.envelope ? `<envelope_to>outlook.com</envelope_to>` : "";
  return `
  <record>
    <row>
      <source_ip>${record.sourceIp}</source_ip>
      <count>${record.count}</count>
      <policy_evaluated>
        <disposition>${record.disposition}</disposition>
        <dkim>${record.dkim}</dkim>
        <spf>${record.spf}</spf>
      </policy_evaluated>
    </row>
    <identifiers>
      ${envelope}<header_from>${record.headerFrom}</header_from>
    </identifiers>
    <auth_results>
      <dkim>
        <domain>${record.dkimDomain}</domain>
        <result>${record.dkimResult}</result>${options.selector ? "\n        <selector>pw1</selector>" : ""}
      </dkim>
      <spf>
        <domain>${record.spfDomain}</domain>${options.scope ? "\n        <scope>mfrom</scope>" : ""}
        <result>${record.spfResult}</result>
      </spf>
    </auth_results>
  </record>`;
}

interface ReportOptions {
  reportId?: string;
  records?: FixtureRecord[];
}

export function googleReportXml(options: ReportOptions = {}): string {
  const records = options.records ?? fixtureRecords("none");
  return `<?xml version="1.0" encoding="UTF-8" ?>
<feedback>
  <report_metadata>
    <org_name>google.com</org_name>
    <email>noreply-dmarc-support@google.com</email>
    <extra_contact_info>https://support.google.com/a/answer/2466580</extra_contact_info>
    <report_id>${options.reportId ?? "4431887164839023461"}</report_id>
    <date_range>
      <begin>${BEGIN}</begin>
      <end>${END}</end>
    </date_range>
  </report_metadata>
  <policy_published>
    <domain>${SENDER_DOMAIN}</domain>
    <adkim>r</adkim>
    <aspf>r</aspf>
    <p>none</p>
    <sp>none</sp>
    <pct>100</pct>
  </policy_published>${records.map((r) => recordXml(r, { envelope: false, selector: true, scope: false })).join("")}
</feedback>
`;
}

export function microsoftReportXml(options: ReportOptions = {}): string {
  const records = options.records ?? fixtureRecords("quarantine");
  return `<?xml version="1.0"?>
<feedback xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://dmarc.org/dmarc-xml/0.1">
  <version>1.0</version>
  <report_metadata>
    <org_name>Enterprise Outlook</org_name>
    <email>dmarcreport@microsoft.com</email>
    <report_id>${options.reportId ?? "b6d2f0a4c1e84b5f9a3e7c2d1f0e9a8b"}</report_id>
    <date_range>
      <begin>${BEGIN}</begin>
      <end>${END + 1}</end>
    </date_range>
  </report_metadata>
  <policy_published>
    <domain>${SENDER_DOMAIN.toUpperCase()}</domain>
    <adkim>s</adkim>
    <aspf>r</aspf>
    <p>quarantine</p>
    <sp>reject</sp>
    <pct>50</pct>
    <fo>1</fo>
  </policy_published>${records.map((r) => recordXml(r, { envelope: true, selector: true, scope: true })).join("")}
</feedback>
`;
}

export function yahooReportXml(options: ReportOptions = {}): string {
  const records = options.records ?? fixtureRecords("reject");
  return `<?xml version="1.0"?>
<feedback>
  <report_metadata>
    <org_name>Yahoo</org_name>
    <email>dmarchelp@yahooinc.com</email>
    <report_id>${options.reportId ?? "1700000000.427356"}</report_id>
    <date_range>
      <begin>${BEGIN}</begin>
      <end>${END}</end>
    </date_range>
  </report_metadata>
  <policy_published>
    <domain>${SENDER_DOMAIN}</domain>
    <adkim>r</adkim>
    <aspf>r</aspf>
    <p>reject</p>
    <pct>100</pct>
  </policy_published>${records.map((r) => recordXml(r, { envelope: false, selector: true, scope: false })).join("")}
</feedback>
`;
}

/** The attachment names each receiver uses: <receiver>!<policy domain>!<begin>!<end>.<ext>. */
export const reportFilename = {
  google: `google.com!${SENDER_DOMAIN}!${BEGIN}!${END}.zip`,
  microsoft: `enterprise.protection.outlook.com!${SENDER_DOMAIN}!${BEGIN}!${END + 1}.xml.gz`,
  yahoo: `yahoo.com!${SENDER_DOMAIN}!${BEGIN}!${END}.xml.gz`,
};

export function gzip(content: string | Uint8Array): Buffer {
  return zlib.gzipSync(content);
}

/** A zip holding `name` plus any `others`, deflated like the receivers' archives. */
export function zip(
  name: string,
  content: string | Uint8Array,
  others: Record<string, string | Uint8Array> = {},
): Buffer {
  const bytes = (value: string | Uint8Array) => (typeof value === "string" ? new TextEncoder().encode(value) : value);
  const files = Object.fromEntries([[name, content], ...Object.entries(others)].map(([n, c]) => [n, bytes(c)]));
  return Buffer.from(zipSync(files));
}
