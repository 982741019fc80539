import { diffLines, diffWords, type ChangeObject } from "diff";
import type { TemplateContent } from "./schemas";

export type VersionContent = TemplateContent;

/** A piece of a line: `changed` pieces are the words that differ from the line it replaces. */
export interface DiffSegment {
  text: string;
  changed: boolean;
}

export type DiffRow =
  | { type: "same" | "add" | "remove"; segments: DiffSegment[]; oldLine: number | null; newLine: number | null }
  | { type: "gap"; skipped: number };

export interface FieldDiff {
  field: keyof VersionContent;
  label: string;
  changed: boolean;
  /** Unified rows with unchanged runs folded to `context` lines around each change. */
  rows: DiffRow[];
}

const FIELDS: Array<{ field: keyof VersionContent; label: string }> = [
  { field: "name", label: "Name" },
  { field: "subject", label: "Subject" },
  { field: "fromAddress", label: "From" },
  { field: "replyTo", label: "Reply-To" },
  { field: "kind", label: "Kind" },
  { field: "strict", label: "Strict variables" },
  { field: "bodyHtml", label: "HTML" },
  { field: "bodyText", label: "Text (empty: derived from the HTML)" },
  { field: "blocks", label: "Blocks document" },
];

/** Two unrelated bodies would take long to compare; past this, all-removed/all-added. */
const DIFF_TIMEOUT_MS = 300;

function asText(field: keyof VersionContent, value: VersionContent[keyof VersionContent]): string {
  if (value === null || value === undefined) return "";
  if (field === "blocks") return JSON.stringify(value, null, 2);
  if (field === "bodyHtml") return String(value).replace(/>(?=<)/g, ">\n"); // rendered starters are one long line
  return String(value);
}

function splitLines(value: string): string[] {
  const lines = value.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** What changed from `from` to `to`, field by field, as unified rows (removed lines before added ones). */
export function diffVersionContent(
  from: VersionContent,
  to: VersionContent,
  options: { context?: number } = {},
): FieldDiff[] {
  return FIELDS.map(({ field, label }) => {
    const before = asText(field, from[field]);
    const after = asText(field, to[field]);
    const changed = before !== after;
    const rows = changed ? unifiedRows(before, after, options.context ?? 3) : [];
    return { field, label, changed, rows };
  });
}

export function unifiedRows(before: string, after: string, context: number): DiffRow[] {
  // A last line with or without a newline reads the same in an email: do not show it as changed.
  if (before && !before.endsWith("\n")) before += "\n";
  if (after && !after.endsWith("\n")) after += "\n";
  const changes: ChangeObject<string>[] = diffLines(before, after, { timeout: DIFF_TIMEOUT_MS }) ?? [
    { value: before, removed: true, added: false, count: 0 },
    { value: after, removed: false, added: true, count: 0 },
  ];
  const rows: Array<Extract<DiffRow, { type: "same" | "add" | "remove" }>> = [];
  let oldLine = 1;
  let newLine = 1;
  for (let index = 0; index < changes.length; index++) {
    const change = changes[index];
    const next = changes[index + 1];
    if (change.removed && next?.added) {
      const removed = splitLines(change.value);
      const added = splitLines(next.value);
      const paired = removed.length === added.length ? removed.map((line, i) => wordSegments(line, added[i])) : null;
      removed.forEach((line, i) =>
        rows.push({
          type: "remove",
          segments: paired ? paired[i].before : [{ text: line, changed: false }],
          oldLine: oldLine++,
          newLine: null,
        }),
      );
      added.forEach((line, i) =>
        rows.push({
          type: "add",
          segments: paired ? paired[i].after : [{ text: line, changed: false }],
          oldLine: null,
          newLine: newLine++,
        }),
      );
      index++;
      continue;
    }
    for (const line of splitLines(change.value)) {
      if (change.added)
        rows.push({ type: "add", segments: [{ text: line, changed: false }], oldLine: null, newLine: newLine++ });
      else if (change.removed)
        rows.push({ type: "remove", segments: [{ text: line, changed: false }], oldLine: oldLine++, newLine: null });
      else
        rows.push({ type: "same", segments: [{ text: line, changed: false }], oldLine: oldLine++, newLine: newLine++ });
    }
  }
  return foldUnchanged(rows, context);
}

function wordSegments(before: string, after: string): { before: DiffSegment[]; after: DiffSegment[] } {
  const parts = diffWords(before, after);
  return {
    before: parts.filter((part) => !part.added).map((part) => ({ text: part.value, changed: part.removed })),
    after: parts.filter((part) => !part.removed).map((part) => ({ text: part.value, changed: part.added })),
  };
}

/** Keeps `context` unchanged lines next to each change and replaces longer unchanged runs with a gap. */
function foldUnchanged(rows: Array<Extract<DiffRow, { type: "same" | "add" | "remove" }>>, context: number): DiffRow[] {
  const keep = rows.map((row) => row.type !== "same");
  rows.forEach((row, index) => {
    if (row.type === "same") return;
    for (let offset = 1; offset <= context; offset++) {
      if (index - offset >= 0) keep[index - offset] = true;
      if (index + offset < rows.length) keep[index + offset] = true;
    }
  });
  const out: DiffRow[] = [];
  let skipped = 0;
  rows.forEach((row, index) => {
    if (keep[index]) {
      if (skipped > 0) out.push({ type: "gap", skipped });
      skipped = 0;
      out.push(row);
    } else {
      skipped++;
    }
  });
  if (skipped > 0) out.push({ type: "gap", skipped });
  return out;
}
