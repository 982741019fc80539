import { describe, expect, it } from "vitest";
import { matchWords } from "@/components/dashboard/providers/words";
import { connectionBodyFromForm, dryRunBodyFromForm, ruleBodyFromForm } from "./form-body";

function form(entries: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries))
    for (const item of Array.isArray(value) ? value : [value]) data.append(name, item);
  return data;
}

describe("connectionBodyFromForm", () => {
  it("takes the chosen kind's fields only, secrets as typed, limits as numbers", () => {
    const body = connectionBodyFromForm(
      form({
        name: " eu-relay ",
        kind: "smtp",
        url: " smtp://relay.example.com:587 ",
        user: "",
        password: " secret ",
        apiKey: "re_ignored",
        ratePerSecond: "10",
        concurrency: "",
      }),
    );
    expect(body).toEqual({
      name: "eu-relay",
      kind: "smtp",
      url: "smtp://relay.example.com:587",
      password: " secret ",
      ratePerSecond: 10,
    });
  });

  it("splits SNS topics and passes a number that does not parse on as text", () => {
    const body = connectionBodyFromForm(
      form({ name: "ses", kind: "ses", snsTopicArns: "arn:a, arn:b", concurrency: "many" }),
    );
    expect(body).toMatchObject({ snsTopicArns: ["arn:a", "arn:b"], concurrency: "many" });
  });
});

describe("ruleBodyFromForm", () => {
  it("lists what the rule matches, and its connections in order", () => {
    const body = ruleBodyFromForm(
      form({
        name: "",
        recipientDomains: "example.de, *.example.at",
        senderDomains: "",
        streams: "bulk",
        mailboxFamilies: ["microsoft", "yahoo"],
        connections: "eu-relay,default",
      }),
    );
    expect(body).toEqual({
      name: null,
      match: {
        recipientDomains: ["example.de", "*.example.at"],
        streams: ["bulk"],
        mailboxFamilies: ["microsoft", "yahoo"],
      },
      connections: ["eu-relay", "default"],
    });
  });
});

describe("dryRunBodyFromForm", () => {
  it("keeps display names and splits recipients on commas only", () => {
    expect(dryRunBodyFromForm(form({ from: "Acme <a@example.com>", to: "Ada <ada@outlook.com>", tags: "" }))).toEqual({
      from: "Acme <a@example.com>",
      to: "Ada <ada@outlook.com>",
    });
    expect(dryRunBodyFromForm(form({ from: "a@example.com", to: "b@x.org, c@y.org", tags: "stream:bulk" }))).toEqual({
      from: "a@example.com",
      to: ["b@x.org", "c@y.org"],
      tags: ["stream:bulk"],
    });
  });
});

describe("matchWords", () => {
  it("says what a rule matches", () => {
    expect(matchWords({})).toBe("Every message");
    expect(matchWords({ mailboxFamilies: ["microsoft"], streams: ["bulk", "news"] })).toBe(
      "Messages whose recipients' mailboxes are all at Microsoft and in the bulk or news stream",
    );
  });
});
