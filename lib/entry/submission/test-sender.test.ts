import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import type { SubmissionListener } from "./start-submission-server";
import { plainAuth, RawSmtp, startTestListener } from "./testing";

/** The test sender over SMTP submission (docs/api.md#the-test-sender): the API's rule, judged at RCPT and at DATA. */
const saved = { DELIVERY_PROVIDER: process.env.DELIVERY_PROVIDER, SMTP_URL: process.env.SMTP_URL };
let listener: SubmissionListener;
let ws: Awaited<ReturnType<typeof createTestWorkspace>>;
const open: RawSmtp[] = [];

beforeAll(async () => {
  listener = await startTestListener();
  ws = await createTestWorkspace();
});
afterEach(() => {
  open.splice(0).forEach((smtp) => smtp.destroy());
  useSettings(saved);
});
afterAll(() => listener.close());

async function session(): Promise<RawSmtp> {
  const smtp = await RawSmtp.connect(listener.port!);
  open.push(smtp);
  expect(await smtp.reply()).toMatch(/^220 /);
  expect(await smtp.command("EHLO client.test")).toMatch(/^250/);
  expect(await smtp.command(`AUTH PLAIN ${plainAuth(ws.key.id, ws.key.password)}`)).toMatch(/^235/);
  return smtp;
}

async function data(smtp: RawSmtp, from: string, to: string): Promise<string> {
  expect(await smtp.command("DATA")).toMatch(/^354/);
  return smtp.command(`From: ${from}\r\nTo: ${to}\r\nSubject: Hello\r\n\r\nIt works.\r\n.`);
}

const messageIdOf = (reply: string) => /^250 2\.0\.0 OK (em_[0-9A-Za-z]{16})/.exec(reply)?.[1];

describe("SMTP submission from the test sender", () => {
  it("with the local provider: accepted for any recipient", async () => {
    useSettings({ DELIVERY_PROVIDER: "local" });
    const smtp = await session();
    expect(await smtp.command("MAIL FROM:<test@postwerk.test>")).toMatch(/^250/);
    expect(await smtp.command("RCPT TO:<ada@example.org>")).toMatch(/^250/);
    const reply = await data(smtp, "Postwerk <test@postwerk.test>", "ada@example.org");
    const id = messageIdOf(reply);
    expect(id, reply).toBeDefined();
    expect((await readMessageState(id!)).message.from).toBe("Postwerk <test@postwerk.test>");
  });

  it("with a real provider: a real recipient is refused at RCPT (550 5.7.1, how to add a domain), a simulator one accepted", async () => {
    useSettings({ DELIVERY_PROVIDER: "smtp", SMTP_URL: "smtp://127.0.0.1:2" });
    const smtp = await session();
    expect(await smtp.command("MAIL FROM:<test@postwerk.test>")).toMatch(/^250/);
    const refused = await smtp.command("RCPT TO:<ada@example.org>");
    expect(refused).toMatch(/^550 5\.7\.1 postwerk\.test is the test sender/);
    expect(refused).toContain("DOMAIN_VERIFICATION=off");
    expect(refused).toContain("--verified");
    expect(await smtp.command("RCPT TO:<delivered@simulator.postwerk.test>")).toMatch(/^250/);
    const reply = await data(smtp, "test@postwerk.test", "delivered@simulator.postwerk.test");
    expect(messageIdOf(reply), reply).toBeDefined();
  });

  it("with a real provider: a From header of the test sender behind a verified envelope sender is refused at DATA", async () => {
    useSettings({ DELIVERY_PROVIDER: "smtp", SMTP_URL: "smtp://127.0.0.1:2" });
    const smtp = await session();
    expect(await smtp.command("MAIL FROM:<hello@example.com>")).toMatch(/^250/);
    expect(await smtp.command("RCPT TO:<ada@example.org>")).toMatch(/^250/);
    const reply = await data(smtp, "Postwerk <test@postwerk.test>", "ada@example.org");
    expect(reply).toMatch(/^550 5\.7\.1 postwerk\.test is the test sender.*\(from\)$/);
  });
});
