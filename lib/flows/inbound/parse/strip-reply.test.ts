import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stripReply } from "./strip-reply";

const dir = path.join(__dirname, "testdata", "replies");
const cases = readdirSync(dir)
  .filter((f) => f.endsWith(".txt") && !f.endsWith(".expected.txt") && !f.endsWith(".signature.txt"))
  .map((f) => f.slice(0, -".txt".length))
  .sort();

function read(name: string): string | null {
  try {
    return readFileSync(path.join(dir, name), "utf8");
  } catch {
    return null;
  }
}

describe("stripReply: the corpus of real-shaped replies (testdata/replies/README.md)", () => {
  it("holds at least 30 cases, each with its expected reply", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    for (const name of cases) expect(read(`${name}.expected.txt`), name).not.toBeNull();
  });

  it.each(cases)("%s", (name) => {
    const out = stripReply(read(`${name}.txt`)!);
    expect(out.reply).toBe(read(`${name}.expected.txt`)!.replace(/\n$/, ""));
    const signature = read(`${name}.signature.txt`);
    expect(out.signature).toBe(signature === null ? null : signature.replace(/\n$/, ""));
  });

  it("reads CRLF mail as LF mail", () => {
    const crlf = read("13-outlook-desktop-en.txt")!.replace(/\n/g, "\r\n");
    expect(stripReply(crlf).reply).toBe(read("13-outlook-desktop-en.expected.txt")!.replace(/\n$/, ""));
  });
});

describe("stripReply: plain text and edge cases", () => {
  it("keeps a mail without quotes whole", () => {
    expect(stripReply("Hello,\n\nI would like to know more.\n")).toEqual({
      reply: "Hello,\n\nI would like to know more.",
      signature: null,
    });
  });

  it("gives an empty reply for empty input and for a mail that is only a quote", () => {
    expect(stripReply("")).toEqual({ reply: "", signature: null });
    expect(stripReply("> a\n> b\n")).toEqual({ reply: "", signature: null });
  });

  it("does not take a sentence that starts with On for an attribution", () => {
    const text = "On Monday I will call you.\nThe team wrote: nothing yet.";
    expect(stripReply(text).reply).toBe(text);
  });
});

describe("stripReply: client signatures", () => {
  it.each([
    "Sent from my iPhone",
    "Sent from my Samsung Galaxy smartphone.",
    "Get Outlook for Android",
    "Von meinem iPad gesendet",
    "Inviato da iPhone",
    "Enviado desde mi teléfono Huawei",
  ])("takes %s for the signature", (line) => {
    expect(stripReply(`Yes.\n\n${line}\n`)).toEqual({ reply: "Yes.", signature: line });
  });

  it("keeps a sentence that starts like one", () => {
    const text = "Sent from my office: the contract.\nInviato da Roma ieri.";
    expect(stripReply(text)).toEqual({ reply: text, signature: null });
  });
});

describe("stripReply: hostile sizes", () => {
  it("handles a 1 MB line", () => {
    const line = "On " + "x".repeat(1024 * 1024) + " wrote:";
    const out = stripReply(`Hello\n${line}\n> quoted`);
    expect(out.reply).toBe(`Hello\n${line}`);
  });

  it("handles a 1 MB line of spaces and markers", () => {
    const line = "Am " + " schrieb".repeat(130_000);
    expect(stripReply(line).reply).toBe(line.trimEnd());
  });

  it("handles 10,000 quoted lines, with and without answers between them", () => {
    const quoted = Array.from({ length: 10_000 }, (_, i) => `> line ${i}`).join("\n");
    expect(stripReply(`Top answer\n\nOn Sat, Nov 28, 2026 Jane wrote:\n${quoted}`).reply).toBe("Top answer");
    const interleaved = Array.from({ length: 10_000 }, (_, i) => `> q${i}\na${i}`).join("\n");
    const out = stripReply(`On Sat, Nov 28, 2026 Jane wrote:\n${interleaved}`).reply.split("\n");
    expect(out).toHaveLength(10_000);
    expect(out[0]).toBe("a0");
    expect(out[9_999]).toBe("a9999");
  });
});
