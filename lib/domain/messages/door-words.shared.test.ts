import { describe, expect, it } from "vitest";
import type { MessageDoor, MessageSource } from "@/db/schema/messages";
import { doorWords } from "./door-words.shared";

describe("doorWords", () => {
  it.each<[MessageSource, MessageDoor | null, string]>([
    ["API", "smtp", "Sent over SMTP"],
    ["SANDBOX_API", "smtp", "Sent over SMTP (sandbox)"],
    ["API", "api", "Sent through the API"],
    ["SANDBOX_API", "api", "Sent through the API (sandbox)"],
    ["BATCH", "api", "Sent through the API, in a batch"],
    ["API", "dashboard", "Sent from the dashboard"],
    ["PREVIEW", "dashboard", "A test send from the template studio"],
    ["API", "system", "Sent by Postwerk itself (an invitation or sign-in link)"],
    // Not recorded (rows from before, workflow steps): the source alone, which cannot tell the API from SMTP.
    ["API", null, "Sent through the API or over SMTP"],
    ["WORKFLOW", null, "Sent by a workflow"],
    ["SANDBOX_WORKFLOW", null, "Sent by a workflow (sandbox)"],
    ["SANDBOX_BATCH", null, "Sent through the API, in a batch (sandbox)"],
  ])("%s by %s: %s", (source, submittedVia, words) => {
    expect(doorWords({ source, submittedVia })).toBe(words);
  });
});
