import { describe, expect, it } from "vitest";
import { EVENT_CODES } from "./event-codes.shared";
import { describeEvent, splitSentence } from "./event-labels.shared";

describe("describeEvent", () => {
  it("gives every known code a label that is not the code", () => {
    for (const code of EVENT_CODES) {
      const described = describeEvent(code);
      expect(described.label).not.toMatch(/EMAIL_MESSAGE|_/);
      expect(described.icon.length).toBeGreaterThan(0);
    }
  });

  it("colours by category", () => {
    expect(describeEvent("EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT")).toMatchObject({
      label: "Delivered",
      category: "progress",
      tone: "success",
    });
    expect(describeEvent("EMAIL_MESSAGE_OPEN_PROVIDER_EVENT")).toMatchObject({ label: "Opened", tone: "info" });
    expect(describeEvent("EMAIL_MESSAGE_INVALID_SENDER_ERROR")).toMatchObject({
      label: "Failed — invalid sender",
      tone: "danger",
    });
    expect(describeEvent("EMAIL_MESSAGE_PAUSED")).toMatchObject({ label: "Paused", tone: "neutral" });
  });

  it("adds the bounce's reason when the sentence names one", () => {
    expect(describeEvent("EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT", "Bounced for a@b.c: 552 Mailbox full").label).toBe(
      "Bounced — mailbox full",
    );
    expect(describeEvent("EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT", "550 5.1.1 User unknown").label).toBe(
      "Bounced — unknown address",
    );
    expect(describeEvent("EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT", "Bounced.").label).toBe("Bounced");
  });

  it("reads an unknown code as words", () => {
    expect(describeEvent("EMAIL_MESSAGE_SOMETHING_NEW_PROVIDER_EVENT")).toMatchObject({
      label: "Something new",
      category: "neutral",
    });
  });
});

describe("splitSentence", () => {
  it("cuts a sentence at the instants it names", () => {
    expect(splitSentence("Delivered to the local inbox at 2026-01-02T03:04:05.678Z.")).toEqual([
      { text: "Delivered to the local inbox at " },
      { iso: "2026-01-02T03:04:05.678Z" },
      { text: "." },
    ]);
    expect(splitSentence("No time here")).toEqual([{ text: "No time here" }]);
  });
});
