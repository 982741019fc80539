import { describe, expect, it } from "vitest";
import { diffVersionContent, unifiedRows, type VersionContent } from "./version-diff.shared";

const base: VersionContent = {
  name: "Welcome",
  subject: "Hi {{ name }}",
  bodyHtml: "<p>a</p>",
  bodyText: null,
  fromAddress: null,
  replyTo: null,
  strict: false,
  kind: "code",
  blocks: null,
};
const text = (row: ReturnType<typeof unifiedRows>[number]) =>
  "segments" in row ? row.segments.map((segment) => segment.text).join("") : `… ${row.skipped}`;

describe("diffVersionContent", () => {
  it("marks which fields changed, with words highlighted inside a replaced line", () => {
    const diff = diffVersionContent(base, { ...base, subject: "Hello {{ name }}", strict: true });
    expect(diff.filter((field) => field.changed).map((field) => field.field)).toEqual(["subject", "strict"]);
    const subject = diff.find((field) => field.field === "subject")!;
    expect(subject.rows).toEqual([
      {
        type: "remove",
        oldLine: 1,
        newLine: null,
        segments: [
          { text: "Hi", changed: true },
          { text: " {{ name }}", changed: false },
        ],
      },
      {
        type: "add",
        oldLine: null,
        newLine: 1,
        segments: [
          { text: "Hello", changed: true },
          { text: " {{ name }}", changed: false },
        ],
      },
    ]);
    expect(diff.find((field) => field.field === "strict")!.rows.map(text)).toEqual(["false", "true"]);
  });

  it("breaks one-line HTML between tags so a change is one readable line", () => {
    const from = { ...base, bodyHtml: "<table><tr><td>Total</td><td>{{ total }}</td></tr></table>" };
    const to = { ...base, bodyHtml: "<table><tr><td>Sum</td><td>{{ total }}</td></tr></table>" };
    const html = diffVersionContent(from, to).find((field) => field.field === "bodyHtml")!;
    expect(html.rows.filter((row) => row.type !== "same").map(text)).toEqual(["<td>Total</td>", "<td>Sum</td>"]);
  });

  it("folds long unchanged runs, keeping context around each change and numbering lines on both sides", () => {
    const lines = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`);
    const changed = [...lines];
    changed[9] = "line ten";
    const rows = unifiedRows(lines.join("\n"), [...changed, "line 21"].join("\n"), 2);
    expect(rows.map(text)).toEqual([
      "… 7",
      "line 8",
      "line 9",
      "line 10",
      "line ten",
      "line 11",
      "line 12",
      "… 6",
      "line 19",
      "line 20",
      "line 21",
    ]);
    expect(rows[3]).toMatchObject({ type: "remove", oldLine: 10 });
    expect(rows[4]).toMatchObject({ type: "add", newLine: 10 });
    expect(rows[10]).toMatchObject({ type: "add", newLine: 21 });
  });

  it("compares blocks documents as formatted JSON and a missing text part as empty", () => {
    const from: VersionContent = {
      ...base,
      kind: "blocks",
      blocks: { root: { type: "EmailLayout", data: { childrenIds: ["a"] } } },
    };
    const to = {
      ...from,
      bodyText: "Plain",
      blocks: { root: { type: "EmailLayout", data: { childrenIds: ["a", "b"] } } },
    };
    const diff = diffVersionContent(from, to);
    expect(diff.filter((field) => field.changed).map((field) => field.field)).toEqual(["bodyText", "blocks"]);
    expect(diff.find((field) => field.field === "bodyText")!.rows.map(text)).toEqual(["Plain"]);
  });
});
