import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, providerCircuits, webhookEvents } from "@/db/schema";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startTcpProxy, type TcpProxy } from "@/lib/testing/tcp-proxy";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { acceptMail, deliverOnce, routingRule, smtpConnection, timelineWords } from "@/lib/testing/routing";
import { waitFor } from "@/lib/testing/wait-for";
import { forgetDkimKeys } from "@/lib/delivery/mime/dkim-keys";
import { closeSmtpTransport } from "@/lib/delivery/providers/smtp/smtp-provider";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";

/**
 * Failover that cannot send twice (docs/delivery.md#routing-and-failover): a primary that refuses connections is left
 * for the fallback and its circuit opens; one that takes the body and drops before its 250 keeps the message.
 */
const saved = {
  DELIVERY_PROVIDER: process.env.DELIVERY_PROVIDER,
  SMTP_URL: process.env.SMTP_URL,
  PROVIDERS_ALLOW_PRIVATE: process.env.PROVIDERS_ALLOW_PRIVATE,
  PROVIDER_CIRCUIT_FAILURES: process.env.PROVIDER_CIRCUIT_FAILURES,
  PROVIDER_CIRCUIT_OPEN_SECONDS: process.env.PROVIDER_CIRCUIT_OPEN_SECONDS,
};
let primarySink: SmtpSink;
let backup: SmtpSink;
let primary: TcpProxy;

beforeAll(async () => {
  [primarySink, backup] = await Promise.all([startSmtpSink(), startSmtpSink()]);
  primary = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(primarySink.url).port) });
  useSettings({
    DELIVERY_PROVIDER: "smtp",
    SMTP_URL: backup.url,
    PROVIDERS_ALLOW_PRIVATE: "true",
    PROVIDER_CIRCUIT_FAILURES: "2",
    PROVIDER_CIRCUIT_OPEN_SECONDS: "1",
  });
});

afterAll(async () => {
  closeSmtpTransport();
  await Promise.all([primarySink.close(), backup.close(), primary.close()]);
  useSettings(saved);
  forgetDkimKeys();
});

const tookIt = (sink: SmtpSink, subject: string) =>
  sink.messages.filter((message) => message.raw.toString().includes(`Subject: ${subject}`)).length;

async function routedWorkspace() {
  const { workspace } = await createTestWorkspace();
  await smtpConnection(workspace.id, "primary", `smtp://127.0.0.1:${primary.port}`);
  await smtpConnection(workspace.id, "backup", backup.url);
  await routingRule(workspace.id, { name: "All", match: {}, connections: ["primary", "backup"] });
  return workspace.id;
}

async function circuitOf(ws: string) {
  const [row] = await (await getDb()).select().from(providerCircuits).where(eq(providerCircuits.workspaceId, ws));
  return row;
}

async function circuitEvents(ws: string) {
  const rows = await (await getDb()).select().from(webhookEvents).where(eq(webhookEvents.workspaceId, ws));
  return rows.filter((row) => row.type.startsWith("provider.")).map((row) => row.type);
}

describe("failover", () => {
  it("a primary that refuses connections: the fallback takes the mail, the circuit opens, then a probe closes it", async () => {
    const ws = await routedWorkspace();
    primary.cut();
    const first = await acceptMail(ws, "ada@example.org", { subject: "refused-1" });
    expect(await deliverOnce(ws, first)).toBeNull();
    expect(tookIt(backup, "refused-1")).toBe(1);
    const words = await timelineWords(first);
    expect(words.find((line) => line.includes("did not take the message"))).toMatch(
      /^The SMTP relay 127\.0\.0\.1 \(connection primary\) did not take the message: .+ It goes through the connection backup instead\.$/,
    );
    expect(words.at(-1)).toBe("Sent through the SMTP relay 127.0.0.1 (connection backup, rule All).");
    expect((await readMessageState(first)).codes).toContain("EMAIL_MESSAGE_FAILED_OVER");

    // The second refusal in the window opens the circuit (PROVIDER_CIRCUIT_FAILURES=2).
    const second = await acceptMail(ws, "ada@example.org", { subject: "refused-2" });
    expect(await deliverOnce(ws, second)).toBeNull();
    expect((await circuitOf(ws)).state).toBe("open");
    expect(await circuitEvents(ws)).toEqual(["provider.circuit_opened"]);

    // While open, the primary is not tried at all.
    invalidateShortLivedCaches();
    const third = await acceptMail(ws, "ada@example.org", { subject: "while-open" });
    expect(await deliverOnce(ws, third)).toBeNull();
    expect((await timelineWords(third)).at(-1)).toBe(
      "Sent through the SMTP relay 127.0.0.1 (connection backup, rule All; skipped primary: circuit breaker open).",
    );
    expect((await readMessageState(third)).codes).not.toContain("EMAIL_MESSAGE_FAILED_OVER");

    // Past PROVIDER_CIRCUIT_OPEN_SECONDS one message probes the primary, now back: the circuit closes.
    primary.restore();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    invalidateShortLivedCaches();
    const probe = await acceptMail(ws, "ada@example.org", { subject: "probe" });
    expect(await deliverOnce(ws, probe)).toBeNull();
    expect(tookIt(primarySink, "probe")).toBe(1);
    expect((await circuitOf(ws)).state).toBe("closed");
    expect(await circuitEvents(ws)).toEqual(["provider.circuit_opened", "provider.circuit_closed"]);
  });

  it("a primary that takes the body and drops before its 250: no failover; the same connection delivers it once later", async () => {
    const ws = await routedWorkspace();
    let cutDuringData = true;
    primarySink.respond(async () => {
      if (!cutDuringData) return undefined;
      cutDuringData = false;
      primary.cut();
      return { code: 451, message: "never heard" };
    });
    const id = await acceptMail(ws, "ada@example.org", { subject: "unclear" });
    expect(await deliverOnce(ws, id)).toBeInstanceOf(Error);
    expect(tookIt(backup, "unclear")).toBe(0);
    const [row] = await (
      await getDb()
    )
      .select({ connectionId: emailMessages.connectionId, status: emailMessages.status })
      .from(emailMessages)
      .where(and(eq(emailMessages.id, id), eq(emailMessages.workspaceId, ws)));
    expect(row.status).toBe("PENDING");
    expect(row.connectionId).toMatch(/^pcon_/);
    expect((await readMessageState(id)).codes).not.toContain("EMAIL_MESSAGE_FAILED_OVER");

    // Still down: the retry goes to the same connection only, and waits (never the backup).
    invalidateShortLivedCaches();
    expect(await deliverOnce(ws, id, 1)).toBeInstanceOf(Error);
    expect(tookIt(backup, "unclear")).toBe(0);

    primary.restore();
    primarySink.respond(undefined);
    await waitFor(async () => (await deliverOnce(ws, id, 2)) === null, { what: "the retry through the primary" });
    expect(tookIt(primarySink, "unclear")).toBe(1);
    expect(tookIt(backup, "unclear")).toBe(0);
    expect((await readMessageState(id)).message.status).toBe("SUCCEEDED");
  });
});
