import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { mailToSendDraft } from "./mail-to-send-draft";

const draftOf = async (headers: string[], envelope: string[]) =>
  mailToSendDraft(await simpleParser([...headers, "Subject: Hi", "", "Hello"].join("\r\n")), envelope);

describe("mailToSendDraft: address entries as the API would have been given them", () => {
  it("leaves a plain display name unquoted (UTF-8 too), and quotes one with a special, escaping quotes", async () => {
    const draft = await draftOf(
      [
        'From: "Acme" <hello@example.com>',
        "To: Ada Lovelace <ada@example.org>, =?utf-8?Q?J=C3=BCrgen?= <j@example.org>",
        'Cc: "Smith, Bob" <bob@example.org>, "Say \\"hi\\"" <say@example.org>',
      ],
      ["ada@example.org", "j@example.org", "bob@example.org", "say@example.org"],
    );
    expect(draft.from).toBe("Acme <hello@example.com>");
    expect(draft.to).toEqual(["Ada Lovelace <ada@example.org>", "Jürgen <j@example.org>"]);
    expect(draft.cc).toEqual(['"Smith, Bob" <bob@example.org>', '"Say \\"hi\\"" <say@example.org>']);
  });
});

describe("mailToSendDraft: X-Postwerk-Reply-Tracking", () => {
  it("maps true and false (any case) to replyTracking, and refuses anything else with 550 naming the header", async () => {
    const with_ = (value: string) =>
      draftOf(
        ["From: hello@example.com", "To: ada@example.org", `X-Postwerk-Reply-Tracking: ${value}`],
        ["ada@example.org"],
      );
    expect((await with_("true")).replyTracking).toBe(true);
    expect((await with_("FALSE")).replyTracking).toBe(false);
    await expect(with_("yes")).rejects.toMatchObject({
      responseCode: 550,
      message: expect.stringMatching(/X-Postwerk-Reply-Tracking header must be true or false/),
    });
  });
});
