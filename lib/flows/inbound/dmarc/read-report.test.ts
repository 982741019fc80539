import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { DmarcReport } from "./dmarc-report";
import {
  DMARC_ATTACHMENT_MAX_BYTES,
  DMARC_REPORT_MAX_BYTES,
  parseDmarcXml,
  readDmarcAttachment,
  type ReadOutcome,
} from "./read-report";
import {
  FORWARDER_IP,
  RELAY_IP,
  SPOOF_IP,
  googleReportXml,
  gzip,
  microsoftReportXml,
  reportFilename,
  yahooReportXml,
  zip,
} from "./testing";

const BOMB = /expands past 20 MB: refused as a possible archive bomb/;

function only(outcomes: ReadOutcome[]): ReadOutcome {
  expect(outcomes).toHaveLength(1);
  return outcomes[0];
}

function report(outcome: ReadOutcome): DmarcReport {
  if (!outcome.ok) throw new Error(`expected a report, got: ${outcome.reason}`);
  return outcome.report;
}

function reason(outcome: ReadOutcome): string {
  if (outcome.ok) throw new Error("expected a refusal, got a report");
  return outcome.reason;
}

type Label = string | null;
const attachment = (filename: Label, contentType: Label, content: Buffer) => ({ filename, contentType, content });

describe("readDmarcAttachment: the receivers' reports", () => {
  it("reads Google's zip", () => {
    const file = attachment(reportFilename.google, "application/zip", zip("report.xml", googleReportXml()));
    const parsed = report(only(readDmarcAttachment(file)));
    expect(parsed).toMatchObject({
      orgName: "google.com",
      email: "noreply-dmarc-support@google.com",
      reportId: "4431887164839023461",
      begin: new Date(1700000000 * 1000),
      end: new Date(1700086399 * 1000),
      domain: "example.com",
      policy: "none",
      subdomainPolicy: "none",
      pct: 100,
      adkim: "r",
      aspf: "r",
    });
    expect(parsed.records[0]).toEqual({
      sourceIp: RELAY_IP,
      count: 120,
      disposition: "none",
      dkimAligned: true,
      spfAligned: true,
      headerFrom: "example.com",
      dkimResult: "pass",
      dkimDomain: "example.com",
      spfResult: "pass",
      spfDomain: "bounce.example.com",
    });
    // The spoofer fails both; the forwarder keeps DKIM and breaks SPF.
    expect(parsed.records.slice(1).map((r) => [r.sourceIp, r.count, r.dkimAligned, r.spfAligned])).toEqual([
      [SPOOF_IP, 7, false, false],
      [FORWARDER_IP, 3, true, false],
    ]);
    expect(parsed.records.slice(1).map((r) => [r.dkimResult, r.dkimDomain, r.spfResult, r.spfDomain])).toEqual([
      ["fail", "spoofer.test", "fail", "spoofer.test"],
      ["pass", "example.com", "softfail", "lists.forwarder.test"],
    ]);
  });

  it("reads Microsoft's namespaced gzip, lower-casing the policy domain", () => {
    const file = attachment(reportFilename.microsoft, "application/gzip", gzip(microsoftReportXml()));
    const parsed = report(only(readDmarcAttachment(file)));
    expect(parsed).toMatchObject({
      orgName: "Enterprise Outlook",
      email: "dmarcreport@microsoft.com",
      reportId: "b6d2f0a4c1e84b5f9a3e7c2d1f0e9a8b",
      end: new Date(1700086400 * 1000),
      domain: "example.com",
      policy: "quarantine",
      subdomainPolicy: "reject",
      pct: 50,
      adkim: "s",
      aspf: "r",
    });
    expect(parsed.records.map((r) => [r.sourceIp, r.disposition, r.dkimAligned, r.spfAligned])).toEqual([
      [RELAY_IP, "none", true, true],
      [SPOOF_IP, "quarantine", false, false],
      [FORWARDER_IP, "none", true, false],
    ]);
  });

  it("reads Yahoo's gzip", () => {
    const file = attachment(reportFilename.yahoo, "application/gzip", gzip(yahooReportXml()));
    const parsed = report(only(readDmarcAttachment(file)));
    expect(parsed).toMatchObject({ orgName: "Yahoo", email: "dmarchelp@yahooinc.com", reportId: "1700000000.427356" });
    expect(parsed).toMatchObject({ policy: "reject", subdomainPolicy: null, pct: 100 });
    expect(parsed.records[1]).toMatchObject({ sourceIp: SPOOF_IP, count: 7, disposition: "reject", spfResult: "fail" });
  });

  it("reads plain XML, with a byte order mark and leading whitespace", () => {
    const content = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`\n  ${googleReportXml()}`)]);
    const parsed = report(only(readDmarcAttachment(attachment("report.xml", "text/xml", content))));
    expect(parsed.reportId).toBe("4431887164839023461");
    expect(parsed.records).toHaveLength(3);
  });

  it("trusts the bytes over the name: a gzip called .zip, a zip with no name or type", () => {
    const gzipped = readDmarcAttachment(attachment("report.zip", "application/zip", gzip(yahooReportXml())));
    expect(report(only(gzipped)).orgName).toBe("Yahoo");
    const zipped = readDmarcAttachment(attachment(null, null, zip("report.xml", googleReportXml())));
    expect(report(only(zipped)).orgName).toBe("google.com");
  });

  it("finds nothing in an attachment that is no report by bytes, name or type", () => {
    expect(readDmarcAttachment(attachment("logo.png", "image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47])))).toEqual([]);
  });

  it("reads namespace-prefixed elements", () => {
    const prefixed = googleReportXml()
      .replace(/<(\/?)([a-z_]+)>/g, "<$1dmarc:$2>")
      .replace("<dmarc:feedback>", '<dmarc:feedback xmlns:dmarc="http://dmarc.org/dmarc-xml/0.1">');
    expect(report(parseDmarcXml(prefixed)).records[2].spfDomain).toBe("lists.forwarder.test");
  });
});

describe("readDmarcAttachment: zip archives", () => {
  it("skips entries that are not .xml", () => {
    const file = zip("report.xml", googleReportXml(), { "README.txt": "not a report" });
    expect(report(only(readDmarcAttachment(attachment("r.zip", null, file)))).orgName).toBe("google.com");
  });

  it("reads every .xml entry and refuses nested archives, by name or by content", () => {
    const nested = { "c.xml.gz": gzip(yahooReportXml()), "d.xml": gzip(yahooReportXml()) };
    const file = zip("a.xml", googleReportXml(), { "b.xml": yahooReportXml(), ...nested });
    const outcomes = readDmarcAttachment(attachment("r.zip", null, file));
    expect(outcomes.map((o) => (o.ok ? o.report.orgName : o.reason))).toEqual([
      "google.com",
      "Yahoo",
      'the zip entry "c.xml.gz" is itself an archive: nested archives are refused',
      "the report is itself an archive: nested archives are refused",
    ]);
  });

  it("refuses a zip with no .xml report", () => {
    const outcome = only(readDmarcAttachment(attachment("r.zip", null, zip("notes.txt", "hello"))));
    expect(reason(outcome)).toBe("the zip archive holds no .xml report");
  });

  it("reads at most 10 entries", () => {
    const others = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`r${i}.xml`, yahooReportXml()]));
    const outcomes = readDmarcAttachment(attachment("r.zip", null, zip("first.xml", googleReportXml(), others)));
    expect(outcomes).toHaveLength(11);
    expect(outcomes.slice(0, 10).every((o) => o.ok)).toBe(true);
    expect(reason(outcomes[10])).toMatch(/more than 10 entries/);
  });

  it("refuses a corrupt zip", () => {
    const truncated = zip("report.xml", googleReportXml()).subarray(0, 200);
    expect(reason(only(readDmarcAttachment(attachment("r.zip", null, truncated))))).toMatch(
      /^the zip archive is corrupt/,
    );
  });
});

describe("readDmarcAttachment: hostile input", () => {
  it("refuses an attachment over the size limit before reading it", () => {
    const content = Buffer.alloc(DMARC_ATTACHMENT_MAX_BYTES + 1, 0x20);
    content.write("<feedback>");
    expect(reason(only(readDmarcAttachment(attachment("big.xml", "text/xml", content))))).toBe(
      `the attachment is ${DMARC_ATTACHMENT_MAX_BYTES + 1} bytes, over the 10 MB a DMARC report may take: refused`,
    );
  });

  it("refuses a gzip bomb without inflating it", () => {
    const bomb = gzip(new Uint8Array(50 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const outcome = only(readDmarcAttachment(attachment("r.xml.gz", "application/gzip", bomb)));
    expect(reason(outcome)).toMatch(BOMB);
  });

  it("refuses a zip bomb without inflating it", () => {
    const bomb = Buffer.from(zipSync({ "report.xml": new Uint8Array(50 * 1024 * 1024) }));
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(reason(only(readDmarcAttachment(attachment("r.zip", null, bomb))))).toMatch(BOMB);
  });

  it("counts the bytes a zip entry produces, not the size its headers claim", () => {
    const bomb = Buffer.from(zipSync({ "report.xml": new Uint8Array(DMARC_REPORT_MAX_BYTES + 1024) }));
    // Both copies of the uncompressed size (local header and central directory) now claim 1 KB.
    bomb.writeUInt32LE(1024, 22);
    bomb.writeUInt32LE(1024, bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
    expect(reason(only(readDmarcAttachment(attachment("r.zip", null, bomb))))).toMatch(BOMB);
  });

  it("refuses corrupt gzip data", () => {
    const outcome = only(readDmarcAttachment(attachment("r.xml.gz", null, gzip(googleReportXml()).subarray(0, 60))));
    expect(reason(outcome)).toMatch(/^the gzip data is corrupt/);
  });
});

describe("parseDmarcXml", () => {
  it("refuses malformed XML with the validator's message, and XML that is not a report", () => {
    expect(reason(parseDmarcXml("<feedback><report_metadata></feedback>"))).toMatch(
      /^the report is not well-formed XML: .*report_metadata/,
    );
    expect(reason(parseDmarcXml("<html><body/></html>"))).toMatch(/root is not <feedback>/);
  });

  it("refuses a DTD (billion laughs) and external entities without expanding them", () => {
    const laughs = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join("");
    const xml = `<?xml version="1.0"?><!DOCTYPE feedback [<!ENTITY lol0 "lol">${laughs}]><feedback>&lol9;</feedback>`;
    // Refused before parsing: the declaration is never expanded.
    expect(reason(parseDmarcXml(xml))).toBe("the report declares a DTD or an entity: refused");
    const xxe = googleReportXml().replace("<feedback>", '<!ENTITY xxe SYSTEM "file:///etc/passwd"><feedback>');
    expect(reason(parseDmarcXml(xxe))).toMatch(/DTD or an entity/);
  });

  it.each([
    ["report_metadata/report_id", /<report_id>.*<\/report_id>/],
    ["report_metadata/org_name", /<org_name>.*<\/org_name>/],
    ["report_metadata/date_range/begin", /<date_range>[\s\S]*<\/date_range>/],
    ["policy_published/domain", /<domain>example.com<\/domain>/],
    ["policy_published/p", /<p>.*<\/p>/],
  ])("refuses a report missing %s, naming it", (field, element) => {
    expect(reason(parseDmarcXml(googleReportXml().replace(element, "")))).toBe(`the report has no ${field}`);
  });

  it("refuses a record missing its source IP or count, naming the record", () => {
    expect(reason(parseDmarcXml(googleReportXml().replace(`<source_ip>${SPOOF_IP}</source_ip>`, "")))).toBe(
      "record 2 has no row/source_ip",
    );
    expect(reason(parseDmarcXml(googleReportXml().replace("<count>3</count>", "<count>-3</count>")))).toBe(
      'record 3: row/count is not a whole number: "-3"',
    );
  });

  it("maps unknown result words to null and decodes the predefined entities", () => {
    const xml = googleReportXml()
      .replace("<org_name>google.com</org_name>", "<org_name>AT&amp;T &#x4D;ail</org_name>")
      .replace("<result>softfail</result>", "<result>hardfail</result>");
    const parsed = report(parseDmarcXml(xml));
    expect(parsed.orgName).toBe("AT&T Mail");
    expect(parsed.records[2].spfResult).toBeNull();
  });

  it("reads a report with one record and only the required fields", () => {
    const xml = `<feedback><report_metadata><org_name>tiny</org_name><report_id>1</report_id>
      <date_range><begin>0</begin><end>86399</end></date_range></report_metadata>
      <policy_published><domain>Example.ORG</domain><p>reject</p></policy_published>
      <record><row><source_ip>2001:db8::25</source_ip><count>1</count><policy_evaluated>
      <disposition>reject</disposition></policy_evaluated></row>
      <identifiers><header_from>Example.ORG</header_from></identifiers><auth_results/></record></feedback>`;
    const { records, ...metadata } = report(parseDmarcXml(xml));
    expect(metadata).toEqual({
      orgName: "tiny",
      email: null,
      reportId: "1",
      begin: new Date(0),
      end: new Date(86399 * 1000),
      domain: "example.org",
      policy: "reject",
      subdomainPolicy: null,
      pct: null,
      adkim: null,
      aspf: null,
    });
    const unaligned = { dkimAligned: false, spfAligned: false };
    const noResults = { dkimResult: null, dkimDomain: null, spfResult: null, spfDomain: null };
    expect(records).toEqual([
      {
        sourceIp: "2001:db8::25",
        count: 1,
        disposition: "reject",
        headerFrom: "example.org",
        ...unaligned,
        ...noResults,
      },
    ]);
  });
});
