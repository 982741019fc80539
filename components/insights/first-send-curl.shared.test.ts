import { describe, expect, it } from "vitest";
import { TEST_SENDER } from "@/lib/foundation/addresses/test-sender.shared";
import { parseSendRequest } from "@/lib/sending/parse-send-request";
import { firstSendBody, firstSendCurl, type FirstSendSettings } from "./first-send-curl.shared";

/** The -d argument as the shell hands it to curl: single quotes removed, each '\'' a quote. */
function dataOf(curl: string): string {
  const quoted = /-d '((?:[^']|'\\'')*)'$/.exec(curl)?.[1];
  expect(quoted, curl).toBeDefined();
  return quoted!.replaceAll("'\\''", "'");
}

const settings = (overrides: Partial<FirstSendSettings> = {}): FirstSendSettings => ({
  appUrl: "https://mail.acme.test",
  deliveryProvider: "local",
  testMode: false,
  ...overrides,
});

describe("the Overview's first send", () => {
  it("is a curl to the workspace's API with the key from the shell and a valid JSON body from the test sender", () => {
    const curl = firstSendCurl(settings());
    const lines = curl.split("\n");
    expect(lines[0]).toBe("curl https://mail.acme.test/api/v1/email_messages \\");
    expect(lines[1]).toBe('  -u "$KEY_USERNAME:$KEY_PASSWORD" \\');
    expect(lines[2]).toBe("  -H 'Content-Type: application/json' \\");
    const body = JSON.parse(dataOf(curl));
    expect(body).toEqual(firstSendBody(settings()));
    expect(body.from).toBe(TEST_SENDER);
    // What the API's parser accepts: the command carries the same sender and recipient.
    const command = parseSendRequest(body);
    expect(command.from?.address).toBe("test@postwerk.test");
    expect(command.to.map((recipient) => recipient.address)).toEqual(["ada@example.org"]);
  });

  it("goes to a simulator address whenever any other address would be refused or leave the machine", () => {
    const to = (overrides: Partial<FirstSendSettings>) => JSON.parse(dataOf(firstSendCurl(settings(overrides)))).to;
    expect(to({ deliveryProvider: "local", testMode: false })).toBe("Ada <ada@example.org>");
    expect(to({ deliveryProvider: "local", testMode: true })).toBe("delivered@simulator.postwerk.test");
    expect(to({ deliveryProvider: "smtp", testMode: false })).toBe("delivered@simulator.postwerk.test");
    expect(to({ deliveryProvider: "ses", testMode: true })).toBe("delivered@simulator.postwerk.test");
  });
});
