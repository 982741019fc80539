import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDbHandle, installDbHandle, openPostgres, type DbHandle } from "@/db/client";
import { messageIdHeader } from "@/lib/foundation/addresses/sender-address.shared";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startTcpProxy, type TcpProxy } from "@/lib/testing/tcp-proxy";
import { closeSmtpTransport } from "./providers/smtp/smtp-provider";
import { useSettings } from "@/lib/testing/settings";

/**
 * A relay's 250 that arrives while the database is down used to fail the job, and its retry sent the
 * message again. The worker now holds the answer and records it when the database is back
 * (pipeline/6-record-when-reachable.ts; its own test checks on a fake clock how soon after the return).
 * The outage is a TCP proxy in front of PostgreSQL that resets every connection and refuses new ones,
 * as a restart does; PGlite has no network to cut.
 */
const serverUrl = process.env.DATABASE_URL;
const saved = { DELIVERY_PROVIDER: process.env.DELIVERY_PROVIDER, SMTP_URL: process.env.SMTP_URL };
let sink: SmtpSink;
let proxy: TcpProxy;
let original: DbHandle;
let proxied: DbHandle;

describe.skipIf(!serverUrl)("a database outage while the relay answers", () => {
  beforeAll(async () => {
    sink = await startSmtpSink();
    useSettings({ DELIVERY_PROVIDER: "smtp", SMTP_URL: sink.url });
    original = await getDbHandle();
    const url = new URL(serverUrl!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    proxied = await openPostgres(url.toString(), 4);
    installDbHandle(proxied);
  });

  afterAll(async () => {
    installDbHandle(original);
    await proxied?.close();
    await proxy?.close();
    closeSmtpTransport();
    await sink?.close();
    useSettings(saved);
  });

  it("holds the 250, records it once the database is back, and sends once", async () => {
    const { workspace } = await createTestWorkspace();
    const messageId = await insertTestMessage(workspace.id);
    let restored = false;
    // The database goes down just before the relay answers 250, and comes back 1.5 s later.
    sink.respond(async () => {
      proxy.cut();
      setTimeout(() => {
        restored = true;
        proxy.restore();
      }, 1500);
      return undefined;
    });

    await deliverMessage({ workspaceId: workspace.id, messageId }, { attempt: 0, lastAttempt: false });

    // The delivery waited for the database instead of failing the job.
    expect(restored).toBe(true);
    expect(sink.attempts.get(messageIdHeader(messageId, "hello@example.com"))).toBe(1);
    const state = await readMessageState(messageId);
    expect(state.message.status).toBe("SUCCEEDED");
    expect(state.codes.filter((code) => code === "EMAIL_MESSAGE_SENT_PROVIDER_EVENT")).toHaveLength(1);

    // A retry of the same job (what the queue would have run) finds it recorded and sends nothing.
    sink.respond(undefined);
    await deliverMessage({ workspaceId: workspace.id, messageId }, { attempt: 1, lastAttempt: false });
    expect(sink.attempts.get(messageIdHeader(messageId, "hello@example.com"))).toBe(1);
  }, 30_000);
});
