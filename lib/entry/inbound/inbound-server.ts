import "server-only";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { SMTPServer } from "smtp-server";
import { errorFields, log } from "@/lib/foundation/log";
import { readTlsPair, watchTlsFiles } from "@/lib/foundation/tls-files";
import { metrics } from "@/lib/foundation/metrics/metrics";
import { RatePerIp } from "./rate-per-ip";
import { receiveData, smtpError } from "./receive-data";
import { acceptedRecipients, decideRecipient, forgetRecipients } from "./recipients";

export { FEEDBACK_LOOP_LOCAL_PART } from "./recipients";

export interface InboundSettings {
  port: number;
  host: string;
  /** Reports (DSN, ARF) come to its return paths; null: this listener serves inbound domains only. */
  bounceDomain: string | null;
  maxBytes: number;
  maxRecipients?: number;
  ratePerIpPerMinute?: number;
  maxConnections: number;
  timeoutMs: number;
  /** PEM files for STARTTLS, reloaded when they change; absent: STARTTLS is not offered. */
  tls?: { certPath: string; keyPath: string; reloadIntervalMs?: number };
}

export interface InboundServer {
  port: number;
  /** Stops accepting connections and waits (up to 5 s) for the open ones to finish their mail. */
  close(): Promise<void>;
}

/**
 * The MX of the service (docs/inbound.md#safety-and-limits): mail only for BOUNCE_DOMAIN's signed return paths and
 * fbl@, and for the recipients inbound routes or reply tokens take, so it relays nothing. No AUTH: it is an MX.
 * STARTTLS is offered with a certificate and never required (an MX takes plain mail too).
 * Every mail is committed before the 250; a database failure answers 451 so the sending MTA retries.
 */
export async function startInboundServer(settings: InboundSettings): Promise<InboundServer> {
  const bounceDomain = settings.bounceDomain?.toLowerCase() ?? null;
  const maxRecipients = settings.maxRecipients ?? 50;
  const rate = new RatePerIp(settings.ratePerIpPerMinute ?? 600);
  const refused = (reason: string) =>
    metrics().providerEvents.inc({ provider: "inbound", type: "rcpt", result: `refused-${reason}` });
  const pair = settings.tls ? readTlsPair(settings.tls.certPath, settings.tls.keyPath) : null;
  const server = new SMTPServer({
    ...(pair ?? {}),
    name: os.hostname(),
    banner: "Postwerk inbound mail",
    disabledCommands: pair ? ["AUTH"] : ["AUTH", "STARTTLS"],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    size: settings.maxBytes,
    rejectOversized: true,
    maxClients: settings.maxConnections,
    socketTimeout: settings.timeoutMs,
    closeTimeout: 5000,
    maxAllowedUnauthenticatedCommands: false,
    onMailFrom(_address, session, callback) {
      forgetRecipients(session);
      if (rate.take(session.remoteAddress)) return callback();
      refused("rate");
      callback(smtpError(450, "4.7.1 Too many mails from your address just now; please try again in a minute."));
    },
    onRcptTo(address, session, callback) {
      // Counted, not logged: an MX on the internet is probed all day.
      if (session.envelope.rcptTo.length >= maxRecipients) {
        refused("452");
        return callback(smtpError(452, "4.5.3 Too many recipients in one message."));
      }
      decideRecipient(address.address, bounceDomain).then(
        (decision) => {
          const recipients = acceptedRecipients(session);
          if (decision.kind === "refused") {
            refused(String(decision.code));
            return callback(smtpError(decision.code, decision.message));
          }
          if (decision.kind === "inbound") recipients.inbound.push(decision.recipient);
          else if (decision.messageId === "fbl") recipients.feedbackLoop = true;
          else recipients.reportMessageIds.add(decision.messageId);
          callback();
        },
        (error: unknown) => {
          log.error("inbound recipient lookup failed; the sender is asked to retry", errorFields(error));
          callback(smtpError(451, "4.3.0 This recipient cannot be checked just now; please try again later."));
        },
      );
    },
    onData(stream, session, callback) {
      receiveData(stream, session, settings.maxBytes).then(
        (reply) => callback(null, reply),
        (error: Error) => callback(error),
      );
    },
  });
  server.on("error", (error) => log.warn("inbound SMTP connection error", errorFields(error)));
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(settings.port, settings.host, () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  const { tls } = settings;
  const watch = tls
    ? watchTlsFiles(
        tls.certPath,
        tls.keyPath,
        (next) => server.updateSecureContext(next),
        tls.reloadIntervalMs,
        "inbound",
      )
    : null;
  log.info("inbound SMTP listener started", { host: settings.host, port, bounceDomain, starttls: Boolean(pair) });
  return {
    port,
    close: () => {
      watch?.stop();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
