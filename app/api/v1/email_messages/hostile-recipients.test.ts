import addressParser from "email-addresses";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { POST as batchPost } from "../batches/handlers";
import { POST } from "./handlers";

/**
 * Address fields a client controls must never stall the process: every answer here is a 400 naming
 * the field, given before the RFC 5322 parser (what took seconds over such input) sees any entry.
 * Counted rather than timed, so a loaded machine cannot fail it; the cost is bench/'s to measure.
 */
async function parsed<T>(call: () => Promise<T>): Promise<{ result: T; parses: number }> {
  const one = vi.spyOn(addressParser, "parseOneAddress");
  const list = vi.spyOn(addressParser, "parseAddressList");
  try {
    const result = await call();
    return { result, parses: one.mock.calls.length + list.mock.calls.length };
  } finally {
    one.mockRestore();
    list.mockRestore();
  }
}

const raw = { from: "Acme <hello@example.com>", subject: "Hi", bodyHtml: "<p>Hi</p>" };
/** Entries the RFC 5322 parser once took seconds over, or overflowed its stack on. */
const HOSTILE: Record<string, string> = {
  dots: `${"a.".repeat(24_990)}a@x`,
  quotes: '"'.repeat(49_999),
  comments: `${"(".repeat(2_000)}a@example.net`,
};
/** At most the entry cap long, valid, and among the slowest for the parser (about 3 ms each). */
const SLOW_VALID = `${"a.".repeat(245)} <a@example.org>`;
const list = (entry: string, count: number) => Array(count).fill(entry).join(", ");

let authorization: string;
beforeAll(async () => {
  ({ authorization } = await createTestWorkspace());
  await callRoute(POST, "/api/v1/email_messages", { authorization, body: { ...raw, to: "warm@example.org" } }); // warm the route up
});

describe("hostile address fields through POST /v1/email_messages", () => {
  it("counts the parser's runs (the control: a quoted name reaches it)", async () => {
    const { result, parses } = await parsed(() =>
      callRoute(POST, "/api/v1/email_messages", {
        authorization,
        body: { ...raw, to: '"Doe, Jane" <jane@example.org>' },
      }),
    );
    expect(result.status).toBe(201);
    expect(parses).toBeGreaterThan(0);
  });

  it.each(Object.entries(HOSTILE))(
    "refuses one long %s entry in to, cc or bcc with a 400 naming the field",
    async (_name, entry) => {
      for (const field of ["to", "cc", "bcc"]) {
        const body = { ...raw, to: "ok@example.org", [field]: entry };
        const { result, parses } = await parsed(() =>
          callRoute(POST, "/api/v1/email_messages", { authorization, body }),
        );
        expect(result.status).toBe(400);
        expect(result.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR", param: field });
        expect(parses).toBe(0);
      }
    },
  );

  it("refuses many short entries by their count, before parsing any", async () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      // 10,000 entries is over the field's 50,000 characters; 574 is just under it.
      ["10,000 entries", { to: list(`${"a.".repeat(40)}@x.org`, 10_000) }, "to"],
      [
        "574 entries",
        {
          to: Array(574)
            .fill(`${"a.".repeat(40)}@x.org`)
            .join(","),
        },
        "to",
      ],
      ["50 slow + 1", { to: list(SLOW_VALID, 50), cc: "one@example.org" }, "cc"],
      ["3 x 90 slow", { to: list(SLOW_VALID, 90), cc: list(SLOW_VALID, 90), bcc: list(SLOW_VALID, 90) }, "to"],
    ];
    for (const [name, fields, param] of cases) {
      const { result, parses } = await parsed(() =>
        callRoute(POST, "/api/v1/email_messages", { authorization, body: { ...raw, ...fields } }),
      );
      expect({ name, status: result.status, param: result.json.error.param }).toEqual({ name, status: 400, param });
      expect(parses).toBe(0);
    }
  });

  it("refuses 50,000 commas as an empty list", async () => {
    const { result, parses } = await parsed(() =>
      callRoute(POST, "/api/v1/email_messages", { authorization, body: { ...raw, to: ",".repeat(50_000) } }),
    );
    expect(result.json.error).toMatchObject({ code: "EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR", param: "to" });
    expect(parses).toBe(0);
  });
});

describe("hostile address fields through POST /v1/batches", () => {
  it("refuses four elements with long entries (a 250 KB body), naming each", async () => {
    const elements = [HOSTILE.dots, HOSTILE.quotes, HOSTILE.comments, HOSTILE.quotes].map((to) => ({ ...raw, to }));
    expect(JSON.stringify({ emailMessages: elements }).length).toBeGreaterThan(240_000);
    const { result, parses } = await parsed(() =>
      callRoute(batchPost, "/api/v1/batches", { authorization, body: { emailMessages: elements } }),
    );
    expect(result.status).toBe(400);
    expect(result.json.error.details.map((detail: { param: string }) => detail.param)).toEqual(
      [0, 1, 2, 3].map((i) => `emailMessages[${i}].to`),
    );
    expect(parses).toBe(0);
  });
});

describe("a batch of costly address fields", () => {
  it("lets other work in between its elements", async () => {
    // Each element's one entry is at the length cap and among the parser's slowest (~40 ms, and
    // 10 ms or more on any machine): a batch of them is slow, but the event loop must turn between
    // elements. Counted in turns rather than timed, so a loaded machine does not make it flaky.
    const elements = Array.from({ length: 40 }, () => ({ ...raw, to: `${"(".repeat(497)}a@example.net` }));
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const result = await callRoute(batchPost, "/api/v1/batches", { authorization, body: { emailMessages: elements } });
    clearInterval(ticker);
    expect(result.status).toBe(400);
    expect(result.json.error.details).toHaveLength(40);
    expect(turns).toBeGreaterThanOrEqual(15);
  });
});
