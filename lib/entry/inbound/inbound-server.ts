import "server-only";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { verifyBounceLocalPart } from "@/lib/foundation/crypto/bounce-token";
import { errorFields, log } from "@/lib/foundation/log";
import { metrics } from "@/lib/foundation/metrics/metrics";
import { ingestReport, type ReportRecipients } from "./ingest-report";

export interface InboundSettings {
  port: number;
  host: string;
  bounceDomain: string;
  maxBytes: number;
  maxConnections: number;
  timeoutMs: number;
}

export interface InboundServer {
  port: number;
  /** Stops accepting connections and waits (up to 5 s) for the open ones to finish their report. */
  close(): Promise<void>;
}

/** The feedback-loop address (Yahoo CFL, Microsoft JMRP…): ARF reports about any of our messages. */
export const FEEDBACK_LOOP_LOCAL_PART = "fbl";
/** RCPT TOs per transaction: a bounce is addressed to one return path; a few is generous. */
const MAX_RECIPIENTS = 20;

/**
 * An MX for BOUNCE_DOMAIN taking mail only for verified return paths (and fbl@), so it relays nothing. No AUTH or
 * STARTTLS: reports carry no secret. Recorded before the 250; a database failure answers 451 so the MTA retries.
 */
export async function startInboundServer(settings: InboundSettings): Promise<InboundServer> {
  const domain = settings.bounceDomain.toLowerCase();
  const server = new SMTPServer({
    name: os.hostname(),
    banner: `Postwerk bounce receiver for ${domain}`,
    disabledCommands: ["AUTH", "STARTTLS"],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    size: settings.maxBytes,
    rejectOversized: true,
    maxClients: settings.maxConnections,
    socketTimeout: settings.timeoutMs,
    closeTimeout: 5000,
    maxAllowedUnauthenticatedCommands: false,
    onRcptTo(address, session, callback) {
      const refusal = acceptRecipient(address, session, domain);
      // Counted, not logged: an MX on the internet is probed all day.
      if (refusal)
        metrics().providerEvents.inc({ provider: "inbound", type: "rcpt", result: `refused-${refusal.code}` });
      callback(refusal ? smtpError(refusal.code, refusal.message) : null);
    },
    onData(stream, session, callback) {
      receive(stream, session, domain, settings.maxBytes).then(
        (reply) => callback(null, reply),
        (error: SmtpReplyError) => callback(error),
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
  log.info("inbound SMTP listener started", { host: settings.host, port, bounceDomain: domain });
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function acceptRecipient(
  address: SMTPServerAddress,
  session: SMTPServerSession,
  domain: string,
): { code: number; message: string } | null {
  const recipient = ourRecipient(address.address, domain);
  if (recipient === "other-domain") {
    return {
      code: 550,
      message: `5.7.1 <${address.address}>: Relay access denied: this server takes mail only for ${domain}.`,
    };
  }
  if (recipient === "unknown")
    return {
      code: 550,
      message: `5.1.1 <${address.address}>: No such return path: this address was not issued by this server.`,
    };
  if (session.envelope.rcptTo.length >= MAX_RECIPIENTS)
    return { code: 452, message: "4.5.3 Too many recipients in one message." };
  return null;
}

/** A message id (from a verified return-path token), "fbl", or why the address is not ours. */
function ourRecipient(address: string, domain: string): string | "fbl" | "other-domain" | "unknown" {
  const at = address.lastIndexOf("@");
  const recipientDomain =
    at > 0
      ? address
          .slice(at + 1)
          .toLowerCase()
          .replace(/\.$/, "")
      : "";
  if (recipientDomain !== domain) return "other-domain";
  const local = address.slice(0, at);
  if (local.toLowerCase() === FEEDBACK_LOOP_LOCAL_PART) return "fbl";
  return verifyBounceLocalPart(local) ?? "unknown";
}

/** Who the report is for, from the recipients accepted at RCPT TO (their tokens verified again: a few HMACs). */
function reportRecipients(session: SMTPServerSession, domain: string): ReportRecipients {
  const found = session.envelope.rcptTo.map((rcpt) => ourRecipient(rcpt.address, domain));
  return {
    messageIds: [...new Set(found.filter((entry) => entry.startsWith("em_")))],
    feedbackLoop: found.includes("fbl"),
  };
}

interface SmtpReplyError extends Error {
  responseCode: number;
}

function smtpError(code: number, message: string): SmtpReplyError {
  return Object.assign(new Error(message), { responseCode: code });
}

/** Never more than the limit in memory. */
async function receive(
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  domain: string,
  maxBytes: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  await new Promise<void>((resolve, reject) => {
    stream.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= maxBytes) chunks.push(chunk);
    });
    stream.once("end", resolve);
    stream.once("error", reject);
  });
  if (stream.sizeExceeded || bytes > maxBytes)
    throw smtpError(552, `5.3.4 Message too big: the limit is ${maxBytes} bytes.`);
  const reportFor = reportRecipients(session, domain);
  try {
    const result = await ingestReport(Buffer.concat(chunks), reportFor);
    log.debug("inbound report recorded", { ...result, messages: reportFor.messageIds.length });
    return `2.0.0 Report received (${result.kind}: ${result.recorded} recorded, ${result.duplicates} already known).`;
  } catch (error) {
    metrics().providerEvents.inc({ provider: "inbound", type: "report", result: "retry-451" });
    log.error(
      "inbound report could not be recorded; the sender is asked to retry",
      errorFields(error, { stack: true }),
    );
    throw smtpError(451, "4.3.0 The report could not be recorded just now; please try again later.");
  }
}
