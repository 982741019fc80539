import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killDuringDelivery, killWithRecordingHeld, startFastSupervisor } from "@/lib/testing/kill-during-delivery";
import { routingRule, smtpConnection } from "@/lib/testing/routing";
import { useSettings } from "@/lib/testing/settings";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startTcpProxy, type TcpProxy } from "@/lib/testing/tcp-proxy";
import { closeSmtpTransport } from "../providers/smtp/smtp-provider";

/**
 * The crash test with two connections and failover in progress (docs/delivery.md#routing-and-failover): the primary
 * refuses every connection, the worker fails each message over to the backup and is SIGKILLed with its recording held;
 * the primary comes back after the kill. Copies are counted at both relays.
 */
const serverUrl = process.env.DATABASE_URL;
const saved = { PROVIDERS_ALLOW_PRIVATE: process.env.PROVIDERS_ALLOW_PRIVATE };
let primarySink: SmtpSink;
let backup: SmtpSink;
let primary: TcpProxy;

beforeAll(async () => {
  [primarySink, backup] = await Promise.all([startSmtpSink(), startSmtpSink()]);
  primary = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(primarySink.url).port) });
  primary.cut();
  useSettings({ PROVIDERS_ALLOW_PRIVATE: "true" });
});

afterAll(async () => {
  closeSmtpTransport();
  await Promise.all([primarySink.close(), backup.close(), primary.close()]);
  useSettings(saved);
});

describe.skipIf(!serverUrl)("SIGKILL while failing over (PostgreSQL)", () => {
  it("300 messages through a refusing primary to the backup: 0 lost, duplicates within DELIVERY_MAX_UNRECORDED", async () => {
    const bound = 8;
    const stopSupervisor = await startFastSupervisor(serverUrl!);
    const delivered = () => backup.messages.length;
    try {
      const result = await killDuringDelivery({
        databaseUrl: serverUrl!,
        workerEnv: {
          DELIVERY_PROVIDER: "smtp",
          SMTP_URL: backup.url,
          DELIVERY_MAX_UNRECORDED: String(bound),
          PROVIDERS_ALLOW_PRIVATE: "true",
        },
        prepare: async (workspaceId) => {
          await smtpConnection(workspaceId, "primary", `smtp://127.0.0.1:${primary.port}`);
          await smtpConnection(workspaceId, "backup", backup.url);
          await routingRule(workspaceId, { name: "All", match: {}, connections: ["primary", "backup"] });
        },
        count: 300,
        delivered,
        killAfter: 60,
        // Back after the kill: a message bound to the primary when the worker died (its refusal unrecorded) may go
        // only there, so it waits for the primary rather than risk a second copy through the backup.
        killWith: async (kill) => {
          await killWithRecordingHeld(delivered)(kill);
          primary.restore();
        },
        timeoutMs: 120_000,
      });
      expect(result.unsettled).toBe(0);
      const copies = new Map<string, number>();
      for (const message of [...backup.messages, ...primarySink.messages])
        copies.set(message.messageId ?? "", (copies.get(message.messageId ?? "") ?? 0) + 1);
      const headerOf = (id: string) => `<${id}@example.com>`;
      const missing = result.ids.filter((id) => !copies.has(headerOf(id)));
      expect(missing).toEqual([]);
      const duplicated = result.ids.filter((id) => copies.get(headerOf(id))! > 1);
      expect(duplicated.every((id) => copies.get(headerOf(id)) === 2)).toBe(true);
      expect(duplicated.length).toBeLessThanOrEqual(bound);
      console.log(
        `failover SIGKILL at ${result.deliveredAtKill}/300: all SUCCEEDED ${(result.recoveredMs / 1000).toFixed(1)} s later; duplicates ${duplicated.length} (bound ${bound}); ${primarySink.messages.length} through the primary once back`,
      );
    } finally {
      await stopSupervisor();
    }
  }, 180_000);
});
