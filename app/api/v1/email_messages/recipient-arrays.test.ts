import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { POST as batchPost } from "../batches/handlers";
import { POST } from "./handlers";

const raw = { from: "Acme <hello@example.com>", subject: "Hi", bodyHtml: "<p>Hi</p>" };

describe("recipients as arrays (beyond the decided comma-separated string)", () => {
  it("accepts arrays of strings for to, cc, bcc and replyTo, with the same entries as the string form", async () => {
    const ws = await createTestWorkspace();
    const res = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: {
        ...raw,
        to: ['"Doe, Jane" <jane@example.org>', "bob@example.org"],
        cc: ["Carol <carol@example.org>"],
        bcc: [],
        replyTo: ["support@example.com", "help@example.com"],
      },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      to: ['"Doe, Jane" <jane@example.org>', "bob@example.org"],
      cc: ["Carol <carol@example.org>"],
      bcc: [],
      replyTo: "support@example.com, help@example.com",
    });
  });

  it("names the element at fault, keeps the 50-recipient limit and refuses an empty list", async () => {
    const ws = await createTestWorkspace();
    const bad = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, to: ["ada@example.org", "not an address"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR", param: "to[1]" });

    const many = Array.from({ length: 51 }, (_, index) => `r${index}@example.org`);
    const tooMany = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, to: many },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.param).toBe("to");

    const empty = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, to: [] },
    });
    expect(empty.status).toBe(400);
    expect(empty.json.error).toMatchObject({ code: "EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR", param: "to" });

    const inBatch = await callRoute(batchPost, "/api/v1/batches", {
      authorization: ws.authorization,
      body: {
        emailMessages: [
          { ...raw, to: ["ada@example.org"] },
          { ...raw, to: ["ada@example.org", "nope"] },
        ],
      },
    });
    expect(inBatch.status).toBe(400);
    expect(inBatch.json.error.param).toBe("emailMessages[1].to[1]");
  });

  it("type errors read like the API's other messages: the field, what was expected, an example, what came", async () => {
    const ws = await createTestWorkspace();
    const asNumber = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, to: 42 },
    });
    expect(asNumber.status).toBe(400);
    expect(asNumber.json.error.param).toBe("to");
    expect(asNumber.json.error.message).toBe(
      'to has the wrong type (e.g. "Ada <ada@example.org>, bob@example.org" or ["ada@example.org"]).',
    );

    const variables = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, to: "ada@example.org", variables: "name=Ada" },
    });
    expect(variables.json.error).toMatchObject({
      param: "variables",
      message: 'variables must be a JSON object (e.g. { "name": "Ada" }); got a string.',
    });

    const subject = await callRoute(POST, "/api/v1/email_messages", {
      authorization: ws.authorization,
      body: { ...raw, to: "ada@example.org", subject: "x".repeat(2001) },
    });
    expect(subject.json.error).toMatchObject({ param: "subject", message: "subject must be at most 2000 characters." });
    for (const response of [asNumber, variables, subject])
      expect(response.json.error.message).not.toMatch(/Invalid input|expected \w+, received/);
  });
});
