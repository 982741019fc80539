import { parser } from "@lezer/json";
import { isPlainObject } from "@/lib/foundation/validation.shared";

// Errors carry line and column in every browser (JSON.parse messages differ between engines, some without a position).
export type SampleDataResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; message: string; offset: number; line: number; column: number };

interface JsonFault {
  offset: number;
  message: string;
}

/** JSON.parse gives the value; only when it refuses does Lezer's grammar find where and why. */
export function parseSampleData(text: string): SampleDataResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // The grammar lets through a few details JSON.parse refuses: then its message, at the end.
    const fault = syntaxFault(text) ?? {
      offset: text.length,
      message: error instanceof Error ? error.message : String(error),
    };
    return { ok: false, ...fault, ...lineAndColumn(text, fault.offset) };
  }
  if (isPlainObject(value)) return { ok: true, value };
  const offset = text.length - text.trimStart().length;
  return {
    ok: false,
    offset,
    message: `Sample data must be a JSON object ({ … }), not ${kindOf(value)}.`,
    ...lineAndColumn(text, offset),
  };
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

/** By the editor's own Lezer JSON grammar: Lezer says where, the node before the error what was expected. */
function syntaxFault(text: string): JsonFault | null {
  const cursor = parser.parse(text).cursor();
  while (!cursor.type.isError) if (!cursor.next()) return null;
  const { from, to, parent, prevSibling } = cursor.node;
  const before = prevSibling?.name;
  const found = from >= text.length ? "the end of the data" : text[from] === "'" ? `"'"` : `'${text[from]}'`;
  const fault = (message: string, at = from): JsonFault => ({ offset: at, message });
  const inString = to > from && text[from] === '"' ? stringFault(text, from) : null;
  if (inString) return inString;
  const expectValue = () =>
    fault(
      text[from] === "'"
        ? 'Strings need double quotes ("), not single ones.'
        : `Expected a value (string, number, object, array, true, false or null), found ${found}.`,
    );
  switch (parent?.name) {
    case "Object":
      return before === "{" || before === ","
        ? fault(`Expected a property name in double quotes, found ${found}.`)
        : fault(`Expected "," or "}" after a property value, found ${found}.`);
    case "Property":
      return before === "PropertyName" ? fault(`Expected ":" after the property name, found ${found}.`) : expectValue();
    case "Array":
      return before === "[" || before === ","
        ? expectValue()
        : fault(`Expected "," or "]" after an array element, found ${found}.`);
    default:
      return before ? fault(`Unexpected ${found} after the end of the data.`) : expectValue();
  }
}

const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** What is wrong with the string that starts at `start`, which the grammar did not take (null: nothing, it is misplaced). */
function stringFault(text: string, start: number): JsonFault | null {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') return null;
    if (c < " ")
      return {
        offset: i,
        message: "A line break or control character inside a string: close the string first, or write \\n.",
      };
    if (c === "\\") {
      ESCAPE.lastIndex = i;
      if (!ESCAPE.test(text)) return { offset: i, message: `Invalid escape "\\${text[i + 1] ?? ""}" in a string.` };
      i = ESCAPE.lastIndex - 1;
    }
  }
  return { offset: start, message: "This string is not closed: add the missing '\"'." };
}

/** Every variable the template reads, as an empty string at its path, for the user to fill in. */
export function sampleDataSkeleton(paths: string[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const path of paths) {
    const segments = path
      .replace(/\[\d+\]/g, "")
      .split(".")
      .filter(Boolean);
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
