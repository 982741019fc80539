// Our own MIME reader: mailparser folds delivery-status and feedback-report parts into text, losing the structure
// a report is read by. Lenient: a broken report yields what could be read.
export interface MimePart {
  headers: HeaderFields;
  /** Lowercase type/subtype; text/plain when absent (RFC 2045). */
  type: string;
  params: Record<string, string>;
  /** The body as received (transfer-encoded). */
  body: string;
  parts: MimePart[];
}

/** Header fields by lowercase name, each a list of unfolded values in order. */
export type HeaderFields = Map<string, string[]>;

const MAX_DEPTH = 8;
const MAX_PARTS = 64;

/** Parses a whole message (latin1: bytes kept one-to-one; text parts are decoded by their charset). */
export function parseMime(raw: string, depth = 0, budget = { parts: MAX_PARTS }): MimePart {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers = parseFields(head);
  const { type, params } = contentType(first(headers, "content-type"));
  const part: MimePart = { headers, type, params, body, parts: [] };
  if (type.startsWith("multipart/") && params.boundary && depth < MAX_DEPTH) {
    for (const chunk of splitMultipart(body, params.boundary)) {
      if (--budget.parts < 0) break;
      part.parts.push(parseMime(chunk, depth + 1, budget));
    }
  }
  return part;
}

/** Unfolds and parses `Name: value` lines; lines that are not fields are skipped. */
export function parseFields(block: string): HeaderFields {
  const fields: HeaderFields = new Map();
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!/^[\x21-\x39\x3b-\x7e]+$/.test(name)) continue;
    const values = fields.get(name) ?? [];
    values.push(line.slice(colon + 1).trim());
    fields.set(name, values);
  }
  return fields;
}

/** The groups of a message/delivery-status or feedback-report body, separated by blank lines. */
export function parseFieldGroups(text: string): HeaderFields[] {
  return text
    .split(/\r?\n[ \t]*\r?\n/)
    .map((block) => parseFields(block))
    .filter((group) => group.size > 0);
}

export function first(fields: HeaderFields, name: string): string | undefined {
  return fields.get(name)?.[0];
}

export function walk(part: MimePart): MimePart[] {
  return [part, ...part.parts.flatMap(walk)];
}

/** The decoded text of a part (transfer encoding and charset); unknown charsets read as UTF-8. */
export function partText(part: MimePart): string {
  const encoding = (first(part.headers, "content-transfer-encoding") ?? "").toLowerCase();
  let bytes: Buffer;
  if (encoding === "base64") bytes = Buffer.from(part.body.replace(/[^A-Za-z0-9+/=]/g, ""), "base64");
  else if (encoding === "quoted-printable") bytes = quotedPrintable(part.body);
  else bytes = Buffer.from(part.body, "latin1");
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(part.params.charset || "utf-8");
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(bytes);
}

/** Longest Content-Type read: the parameter pattern backtracks, so a hostile megabyte-long value is cut first. */
const MAX_FIELD = 4096;

function contentType(value: string | undefined): { type: string; params: Record<string, string> } {
  if (!value) return { type: "text/plain", params: {} };
  const [type, ...rest] = value.slice(0, MAX_FIELD).split(";");
  const params: Record<string, string> = {};
  for (const match of rest.join(";").matchAll(/([^=;\s]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/g)) {
    const raw = match[2].startsWith('"') ? match[2].slice(1, -1).replace(/\\(.)/g, "$1") : match[2];
    params[match[1].toLowerCase()] = raw;
  }
  return { type: type.trim().toLowerCase() || "text/plain", params };
}

function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const chunks: string[] = [];
  const lines = body.split(/\r?\n/);
  let current: string[] | null = null;
  for (const line of lines) {
    if (line.startsWith(delimiter)) {
      if (current) chunks.push(current.join("\r\n"));
      if (line.slice(delimiter.length).startsWith("--")) return chunks;
      current = [];
    } else if (current) {
      current.push(line);
    }
  }
  if (current) chunks.push(current.join("\r\n"));
  return chunks;
}

function quotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === "=" ? joined.slice(i + 1, i + 3) : "";
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(joined.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** An RFC 2047 encoded-word decoder for a Subject (enough for a sentence; unknown charsets as UTF-8). */
export function decodeWords(value: string): string {
  return value.replace(
    /=\?([^?]+)\?([bBqQ])\?([^?]*)\?=\s*(?==\?)?/g,
    (_, charset: string, kind: string, text: string) => {
      const bytes = kind.toLowerCase() === "b" ? Buffer.from(text, "base64") : quotedPrintable(text.replace(/_/g, " "));
      try {
        return new TextDecoder(charset).decode(bytes);
      } catch {
        return bytes.toString("utf8");
      }
    },
  );
}
