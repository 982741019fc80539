// Reads DMARC aggregate reports (RFC 7489 §7.2, the XML schema of Appendix C) out of the attachments receivers
// mail them in: plain XML, gzip or zip. Pure: bytes in, outcomes out. The attachment comes from anyone who can
// send mail, so every step is bounded: the input size, the bytes decompression may produce (counted as they are
// produced, never taken from headers), the zip entries read, the records kept, and no DTD ever reaches the parser.
import { isIP } from "node:net";
import zlib from "node:zlib";
import { Unzip, UnzipInflate, type UnzipFile } from "fflate";
import { XMLParser, XMLValidator, type X2jOptions } from "fast-xml-parser";
import type { DmarcReport, DmarcReportRecord, DmarcResult } from "./dmarc-report";

/** The most XML one report may expand to. */
export const DMARC_REPORT_MAX_BYTES = 20 * 1024 * 1024;
/** The largest attachment read at all, compressed or not. */
export const DMARC_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const DMARC_REPORT_MAX_RECORDS = 100_000;
export const DMARC_ZIP_MAX_ENTRIES = 10;

export type ReadOutcome = { ok: true; report: DmarcReport } | { ok: false; reason: string };

type Attachment = { filename: string | null; contentType: string | null; content: Buffer };
type Format = "gzip" | "zip" | "xml";

// A zip is fed to the inflater in slices this small: DEFLATE expands at most ~1032:1, so one slice produces at
// most ~1 MB before the running count is checked, whatever the archive claims.
const ZIP_SLICE_BYTES = 1024;
const NESTED_ARCHIVE = /\.(zip|gz|gzip|tgz|tar|bz2|xz|7z|rar)$/i;

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
const refuse = (reason: string): ReadOutcome => ({ ok: false, reason });
const quote = (value: string) => JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
const nested = (what: string) => refuse(`${what} is itself an archive: nested archives are refused`);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const TOO_LARGE = `bytes, over the ${megabytes(DMARC_ATTACHMENT_MAX_BYTES)} a DMARC report may take: refused`;
const BOMB = `the report expands past ${megabytes(DMARC_REPORT_MAX_BYTES)}: refused as a possible archive bomb`;

/**
 * The reports in one attachment: one outcome per report found (a zip may hold several), a refusal with its
 * reason for each that cannot be read, and none when the attachment is neither XML nor an archive by its bytes,
 * name or type (a logo or a signature beside the report). Never throws.
 */
export function readDmarcAttachment(file: Attachment): ReadOutcome[] {
  const { content } = file;
  if (content.length > DMARC_ATTACHMENT_MAX_BYTES) return [refuse(`the attachment is ${content.length} ${TOO_LARGE}`)];
  const format = sniff(content) ?? formatByName(file);
  if (format === "gzip") return [readGzip(content)];
  if (format === "zip") return readZip(content);
  if (format === "xml") return [readXmlBytes(content)];
  return [];
}

// The bytes decide first: receivers name and label their attachments inconsistently (a zip as
// application/octet-stream, a gzip as .zip), but the magic numbers do not lie about the format.
function sniff(bytes: Uint8Array): Format | null {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return "gzip";
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return "zip";
  return /^\uFEFF?\s*</.test(decodeText(bytes.subarray(0, 64))) ? "xml" : null;
}

function formatByName({ filename, contentType }: Attachment): Format | null {
  const name = (filename ?? "").toLowerCase();
  const type = (contentType ?? "").toLowerCase().split(";")[0].trim();
  if (/\.(gz|gzip)$/.test(name) || type.includes("gzip")) return "gzip";
  if (name.endsWith(".zip") || type.includes("zip")) return "zip";
  if (name.endsWith(".xml") || type.endsWith("/xml")) return "xml";
  return null;
}

// TextDecoder honours (and drops) a UTF-8 or UTF-16 byte order mark; reports without one are UTF-8.
function decodeText(bytes: Uint8Array): string {
  const label =
    bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : "utf-8";
  return new TextDecoder(label).decode(bytes);
}

function readXmlBytes(bytes: Uint8Array): ReadOutcome {
  const inner = sniff(bytes);
  if (inner === "gzip" || inner === "zip") return nested("the report");
  return parseDmarcXml(decodeText(bytes));
}

function readGzip(bytes: Buffer): ReadOutcome {
  let xml: Buffer;
  try {
    // zlib stops and throws once the output passes the limit, so a bomb never gets its full allocation.
    xml = zlib.gunzipSync(bytes, { maxOutputLength: DMARC_REPORT_MAX_BYTES });
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ERR_BUFFER_TOO_LARGE") return refuse(BOMB);
    return refuse(`the gzip data is corrupt: ${messageOf(error)}`);
  }
  return readXmlBytes(xml);
}

function readZip(bytes: Uint8Array): ReadOutcome[] {
  const outcomes: ReadOutcome[] = [];
  let entries = 0;
  let stopped = false;
  const unzip = new Unzip((entry) => {
    if (stopped) return;
    if (++entries > DMARC_ZIP_MAX_ENTRIES) {
      outcomes.push(refuse(`the zip archive holds more than ${DMARC_ZIP_MAX_ENTRIES} entries: the rest are not read`));
      stopped = true;
    } else if (NESTED_ARCHIVE.test(entry.name)) {
      outcomes.push(nested(`the zip entry ${quote(entry.name)}`));
    } else if (!entry.name.toLowerCase().endsWith(".xml")) {
      // A readme or signature beside the report: not a report, so not a failure either.
    } else if (entry.compression !== 0 && entry.compression !== 8) {
      // fflate would throw on other methods (bzip2, deflate64…); no receiver is known to use them.
      outcomes.push(refuse(`the zip entry ${quote(entry.name)} uses compression method ${entry.compression}`));
    } else {
      readZipEntry(entry, (outcome, stop) => {
        outcomes.push(outcome);
        stopped ||= stop;
      });
    }
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length && !stopped; at += ZIP_SLICE_BYTES) {
      const end = Math.min(at + ZIP_SLICE_BYTES, bytes.length);
      unzip.push(bytes.subarray(at, end), end === bytes.length);
    }
  } catch (error) {
    outcomes.push(refuse(`the zip archive is corrupt: ${messageOf(error)}`));
  }
  return outcomes.length > 0 ? outcomes : [refuse("the zip archive holds no .xml report")];
}

// Counts what the entry really produces; the sizes in its headers are the attacker's to choose.
function readZipEntry(entry: UnzipFile, settle: (outcome: ReadOutcome, stop: boolean) => void): void {
  const chunks: Uint8Array[] = [];
  let produced = 0;
  let settled = false;
  entry.ondata = (error, data, final) => {
    if (settled) return;
    if (error) {
      settled = true;
      return settle(refuse(`the zip entry ${quote(entry.name)} is corrupt: ${error.message}`), false);
    }
    produced += data.length;
    if (produced > DMARC_REPORT_MAX_BYTES) {
      settled = true;
      chunks.length = 0;
      return settle(refuse(BOMB), true);
    }
    chunks.push(data);
    if (final) {
      settled = true;
      settle(readXmlBytes(Buffer.concat(chunks)), false);
    }
  };
  entry.start();
}

const PARSER_OPTIONS: X2jOptions = {
  ignoreAttributes: true,
  removeNSPrefix: true, // Microsoft's reports put the schema's namespace on <feedback>
  parseTagValue: false, // a report_id of digits stays the string it is; numbers are checked below
  processEntities: false, // the five predefined entities are decoded by `decodeEntities`, nothing else expands
  jPath: true,
  isArray: (_name, path) =>
    ["feedback.record", "feedback.record.auth_results.dkim", "feedback.record.auth_results.spf"].includes(String(path)),
};

/** One report's XML, strictly: no DTD, well-formed, with every field a report cannot do without. */
export function parseDmarcXml(xml: string): ReadOutcome {
  if (xml.length > DMARC_REPORT_MAX_BYTES)
    return refuse(`the report is over ${megabytes(DMARC_REPORT_MAX_BYTES)}: refused`);
  // A DTD is how entity expansion (billion laughs) and external entities (XXE) get in; no report needs one.
  if (/<!\s*(DOCTYPE|ENTITY)/i.test(xml)) return refuse("the report declares a DTD or an entity: refused");
  const text = xml.replace(/^\uFEFF/, "").trimStart();
  const valid = XMLValidator.validate(text);
  if (valid !== true) return refuse(`the report is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  try {
    const feedback = at(new XMLParser(PARSER_OPTIONS).parse(text), "feedback");
    if (feedback === undefined) return refuse("the XML is not a DMARC aggregate report: its root is not <feedback>");
    // An empty <feedback/> parses to "": read as a report with nothing in it, so the refusal names what is missing.
    return { ok: true, report: toReport(isObject(feedback) ? feedback : {}) };
  } catch (error) {
    return refuse(messageOf(error));
  }
}

const DISPOSITIONS = ["none", "quarantine", "reject"] as const;
const DISPOSITION = "row/policy_evaluated/disposition";
const ALIGNMENTS = ["r", "s"] as const;
const RESULTS: DmarcResult[] = ["pass", "fail", "none", "neutral", "softfail", "temperror", "permerror", "policy"];

function toReport(feedback: Record<string, unknown>): DmarcReport {
  const rows = feedback.record;
  const records = Array.isArray(rows) ? rows : [];
  if (records.length > DMARC_REPORT_MAX_RECORDS) {
    fail(`the report has ${records.length} records, over the ${DMARC_REPORT_MAX_RECORDS} kept`);
  }
  return {
    orgName: need(feedback, "report_metadata/org_name"),
    email: text(feedback, "report_metadata/email"),
    reportId: need(feedback, "report_metadata/report_id"),
    begin: unixTime(feedback, "report_metadata/date_range/begin"),
    end: unixTime(feedback, "report_metadata/date_range/end"),
    domain: need(feedback, "policy_published/domain").toLowerCase(),
    policy: word(DISPOSITIONS, need(feedback, "policy_published/p"), "policy_published/p"),
    subdomainPolicy: oneOf(DISPOSITIONS, text(feedback, "policy_published/sp")),
    pct: percent(text(feedback, "policy_published/pct")),
    adkim: oneOf(ALIGNMENTS, text(feedback, "policy_published/adkim")),
    aspf: oneOf(ALIGNMENTS, text(feedback, "policy_published/aspf")),
    records: records.map((record, index) => toRecord(record, `record ${index + 1}`)),
  };
}

// disposition and header_from are required by the schema too, and the record type has no null for them:
// refusing beats inventing a value that would be counted as real.
function toRecord(record: unknown, where: string): DmarcReportRecord {
  const sourceIp = need(record, "row/source_ip", where);
  if (isIP(sourceIp) === 0) fail(`${where}: row/source_ip is not an IP address: ${quote(sourceIp)}`);
  return {
    sourceIp,
    count: wholeNumber(need(record, "row/count", where), `${where}: row/count`),
    disposition: word(DISPOSITIONS, need(record, DISPOSITION, where), `${where}: ${DISPOSITION}`),
    dkimAligned: text(record, "row/policy_evaluated/dkim")?.toLowerCase() === "pass",
    spfAligned: text(record, "row/policy_evaluated/spf")?.toLowerCase() === "pass",
    headerFrom: need(record, "identifiers/header_from", where).toLowerCase(),
    dkimResult: oneOf(RESULTS, text(record, "auth_results/dkim/result")),
    dkimDomain: text(record, "auth_results/dkim/domain")?.toLowerCase() ?? null,
    spfResult: oneOf(RESULTS, text(record, "auth_results/spf/result")),
    spfDomain: text(record, "auth_results/spf/domain")?.toLowerCase() ?? null,
  };
}

function fail(reason: string): never {
  throw new Error(reason);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Follows a/b/c through the parsed tree, taking the first of repeated elements at every step. */
function at(value: unknown, path: string): unknown {
  let node = value;
  for (const name of path.split("/")) {
    const current = Array.isArray(node) ? node[0] : node;
    node = isObject(current) && Object.hasOwn(current, name) ? current[name] : undefined;
  }
  return Array.isArray(node) ? node[0] : node;
}

/** The trimmed text at path, null when the element is missing, empty or not text. */
function text(value: unknown, path: string): string | null {
  const found = at(value, path);
  if (typeof found !== "string") return null;
  const decoded = decodeEntities(found).trim();
  return decoded === "" ? null : decoded;
}

function need(value: unknown, path: string, where?: string): string {
  return text(value, path) ?? fail(`${where ?? "the report"} has no ${path}`);
}

const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

// Only XML's five predefined entities and character references: anything else is left as written.
function decodeEntities(value: string): string {
  if (!value.includes("&")) return value;
  return value.replace(/&(amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/g, (whole, name: string) => {
    if (!name.startsWith("#")) return PREDEFINED[name];
    const code = name[1] === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | null {
  const lower = value?.toLowerCase();
  return allowed.find((word) => word === lower) ?? null;
}

function word<T extends string>(allowed: readonly T[], value: string, what: string): T {
  return oneOf(allowed, value) ?? fail(`${what} is not one of ${allowed.join(", ")}: ${quote(value)}`);
}

function wholeNumber(value: string, what: string): number {
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(number) ? number : fail(`${what} is not a whole number: ${quote(value)}`);
}

function unixTime(value: unknown, path: string): Date {
  return new Date(wholeNumber(need(value, path), path) * 1000);
}

function percent(value: string | null): number | null {
  const number = value !== null && /^\d{1,3}$/.test(value) ? Number(value) : NaN;
  return number <= 100 ? number : null;
}
