import { describe, expect, it } from "vitest";
import { readAddressEntry } from "./address-entries.shared";
import { MAX_ENTRY_LENGTH } from "./recipients.shared";

describe("readAddressEntry", () => {
  it("reads mailboxes with their comments, quoted local parts unquoted, and literals as written", () => {
    expect(readAddressEntry("jane@example.com (Jane) (J\\)D)")).toEqual([
      { kind: "mailbox", name: null, local: "jane", domain: "example.com", comments: ["Jane", "J)D"] },
    ]);
    expect(readAddressEntry('Name <"a b"@[127.0.0.1]>')).toEqual([
      { kind: "mailbox", name: "Name", local: "a b", domain: "[127.0.0.1]", comments: [] },
    ]);
  });

  it("reads groups, empty ones too", () => {
    expect(readAddressEntry("Friends: a@x.org, B <b@bücher.de>;")).toEqual([
      {
        kind: "group",
        name: "Friends",
        members: [
          { kind: "mailbox", name: null, local: "a", domain: "x.org", comments: [] },
          { kind: "mailbox", name: "B", local: "b", domain: "bücher.de", comments: [] },
        ],
      },
    ]);
    expect(readAddressEntry("undisclosed-recipients:;")).toEqual([
      { kind: "group", name: "undisclosed-recipients", members: [] },
    ]);
  });

  it("names nobody for an entry that does not parse or is longer than the API stores", () => {
    expect(readAddressEntry("a.@.a")).toEqual([]);
    expect(readAddressEntry("not an address")).toEqual([]);
    expect(readAddressEntry(`${"(".repeat(MAX_ENTRY_LENGTH)}a@x.org`)).toEqual([]);
  });
});
