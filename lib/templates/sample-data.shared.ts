import { isPlainObject } from "@/lib/validation.shared";

/**
 * The editor's sample data: JSON the user types, checked here so that a mistake is pointed out with
 * its line and column in every browser (JSON.parse messages differ between engines and some carry no
 * position at all). Pure: the client editor and the tests share it.
 */
export type SampleDataResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; message: string; offset: number; line: number; column: number };

interface JsonFault {
  offset: number;
  message: string;
}

export function parseSampleData(text: string): SampleDataResult {
  let fault: JsonFault | null;
  try {
    fault = scanJson(text);
  } catch {
    fault = null; // Nesting deeper than the scanner's stack: JSON.parse below decides.
  }
  if (!fault) {
    try {
      const value: unknown = JSON.parse(text);
      if (isPlainObject(value)) return { ok: true, value };
      fault = { offset: text.length - text.trimStart().length, message: `Sample data must be a JSON object ({ … }), not ${kindOf(value)}.` };
    } catch (error) {
      fault = { offset: text.length, message: error instanceof Error ? error.message : String(error) };
    }
  }
  return { ok: false, ...fault, ...lineAndColumn(text, fault.offset) };
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "string" ? "a string" : `a ${typeof value}`;
}

/** 1-based line and column of an offset, as editors count them. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - (before.lastIndexOf("\n") + 1) + 1 };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

/** The first syntax error of a JSON text (RFC 8259), or null when it is valid. */
function scanJson(text: string): JsonFault | null {
  let i = 0;
  const found = () => (i >= text.length ? "the end of the data" : text[i] === "'" ? `"'"` : `'${text[i]}'`);
  const fail = (message: string, at = i): never => {
    throw Object.assign(new Error(message), { fault: { offset: at, message } });
  };
  const space = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const string = () => {
    const start = i++;
    for (;;) {
      if (i >= text.length) fail("This string is not closed: add the missing '\"'.", start);
      const c = text[i];
      if (c === '"') return void i++;
      if (c < " ") fail("A line break or control character inside a string: close the string first, or write \\n.");
      if (c === "\\") {
        const next = text[i + 1];
        if (next === "u" ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : !ESCAPES.has(next)) fail(`Invalid escape "\\${next ?? ""}" in a string.`);
        i += next === "u" ? 6 : 2;
      } else i++;
    }
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{") return members("}", true);
    if (c === "[") return members("]", false);
    if (c === '"') return string();
    for (const word of ["true", "false", "null"]) if (text.startsWith(word, i)) return void (i += word.length);
    NUMBER.lastIndex = i;
    if ((c === "-" || (c >= "0" && c <= "9")) && NUMBER.test(text)) return void (i = NUMBER.lastIndex);
    fail(c === "'" ? "Strings need double quotes (\"), not single ones." : `Expected a value (string, number, object, array, true, false or null), found ${found()}.`);
  };
  const members = (close: "}" | "]", named: boolean): void => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      space();
      if (named) {
        if (text[i] !== '"') fail(`Expected a property name in double quotes, found ${found()}.`);
        string();
        space();
        if (text[i] !== ":") fail(`Expected ":" after the property name, found ${found()}.`);
        i++;
      }
      value();
      space();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === close) return void i++;
      fail(`Expected "," or "${close}" after ${named ? "a property value" : "an array element"}, found ${found()}.`);
    }
  };
  try {
    value();
    space();
    if (i < text.length) fail(`Unexpected ${found()} after the end of the data.`);
    return null;
  } catch (error) {
    const fault = (error as { fault?: JsonFault }).fault;
    if (fault) return fault;
    throw error;
  }
}

/**
 * Starting sample data for a template without scenarios: every variable it reads, as an empty
 * string at its path (`user.name` → `{ "user": { "name": "" } }`), for the user to fill in.
 */
export function sampleDataSkeleton(paths: string[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const path of paths) {
    const segments = path.replace(/\[\d+\]/g, "").split(".").filter(Boolean);
    let node = root;
    segments.forEach((segment, index) => {
      const last = index === segments.length - 1;
      const existing = node[segment];
      if (last) {
        if (!(segment in node)) node[segment] = "";
      } else {
        if (!isPlainObject(existing)) node[segment] = {};
        node = node[segment] as Record<string, unknown>;
      }
    });
  }
  return root;
}
