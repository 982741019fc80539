import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { smtpClient, startTestListener } from "./testing";
import type { SubmissionListener } from "./start-submission-server";

let listener: SubmissionListener;
let ws: Awaited<ReturnType<typeof createTestWorkspace>>;

beforeAll(async () => {
  listener = await startTestListener();
  ws = await createTestWorkspace();
});
afterAll(async () => listener.close());

/** X-Postwerk-Locale is the API's `locale` (docs/api.md#smtp-submission): never delivered, refused when malformed. */
describe("SMTP submission: X-Postwerk-Locale", () => {
  it("renders the template's variant for the header's locale; a malformed tag is refused naming locale", async () => {
    const template = await ws.createTemplate({
      subject: "Hello {{ name }}",
      locales: {
        defaultLocale: "en",
        variants: [{ locale: "fr", subject: "Bonjour {{ name }}" }],
      },
    });
    const client = smtpClient(listener.port!, { user: ws.key.id, pass: ws.key.password });
    const mail = (locale: string) => ({
      from: "hello@example.com",
      to: "ada@example.org",
      subject: "ignored with a template",
      text: "ignored",
      headers: {
        "X-Postwerk-Template-Id": template.id,
        "X-Postwerk-Variables": JSON.stringify({ name: "Ada" }),
        "X-Postwerk-Locale": locale,
      },
    });
    const info = await client.sendMail(mail("fr_BE"));
    const id = /^250 2\.0\.0 OK (em_[0-9A-Za-z]{16})/.exec(info.response)?.[1];
    const { message } = await readMessageState(id!);
    expect(message).toMatchObject({ subject: "Bonjour Ada", locale: "fr", requestedLocale: "fr-BE" });
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    const { inbox } = await readMessageState(message.id);
    expect(inbox[0].mime).toContain("Subject: Bonjour Ada");
    expect(inbox[0].mime).not.toMatch(/X-Postwerk|fr_BE/i);
    await expect(client.sendMail(mail("not a tag"))).rejects.toThrow(/550 5\.6\.0 .*locale/);
  });
});
