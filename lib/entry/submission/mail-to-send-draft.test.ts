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
