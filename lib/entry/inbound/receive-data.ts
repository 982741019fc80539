import "server-only";
import { inSpan, SpanKind } from "@/lib/foundation/tracing";
import type { SMTPServerDataStream, SMTPServerSession } from "smtp-server";
import { InboundRefusal, receiveInboundMail } from "@/lib/flows/inbound/receive/receive-inbound-mail";
import { errorFields, log } from "@/lib/foundation/log";
import { metrics } from "@/lib/foundation/metrics/metrics";
import { ingestReport } from "./ingest-report";
import { acceptedRecipients } from "./recipients";

export interface SmtpReplyError extends Error {
  responseCode: number;
}

export function smtpError(code: number, message: string): SmtpReplyError {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * One mail's DATA: reports for BOUNCE_DOMAIN's return paths, inbound mail for routed recipients (a transaction may
 * hold both). Answered 250 only once everything is committed; a failure to record answers 451 so the MTA retries,
 * and the retry stores nothing twice (reports by provider event id, inbound mail by its dedupe key).
 */
export async function receiveData(
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  maxBytes: number,
): Promise<string> {
  const raw = await collect(stream, maxBytes);
  const recipients = acceptedRecipients(session);
  const replies: string[] = [];
  const span = {
    kind: SpanKind.SERVER,
    attributes: {
      "postwerk.inbound.bytes": raw.length,
      "postwerk.inbound.reports": recipients.reportMessageIds.size > 0 || recipients.feedbackLoop,
      "postwerk.inbound.recipients": recipients.inbound.length,
    },
  };
  try {
    await inSpan("inbound mail", span, async () => {
      if (recipients.reportMessageIds.size > 0 || recipients.feedbackLoop) {
        const result = await ingestReport(raw, {
          messageIds: [...recipients.reportMessageIds],
          feedbackLoop: recipients.feedbackLoop,
        });
        replies.push(
          `Report received (${result.kind}: ${result.recorded} recorded, ${result.duplicates} already known)`,
        );
      }
      if (recipients.inbound.length > 0) {
        const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        const outcome = await receiveInboundMail(raw, {
          mailFrom,
          ip: session.remoteAddress,
          helo: session.hostNameAppearsAs ?? "",
          recipients: recipients.inbound,
        });
        replies.push(`Mail received (${outcome.stored.length} stored, ${outcome.duplicates} already stored)`);
      }
    });
  } catch (error) {
    if (error instanceof InboundRefusal) throw smtpError(error.code, error.message);
    metrics().providerEvents.inc({ provider: "inbound", type: "data", result: "retry-451" });
    log.error("inbound mail could not be recorded; the sender is asked to retry", errorFields(error, { stack: true }));
    throw smtpError(451, "4.3.0 The mail could not be recorded just now; please try again later.");
  }
  return `2.0.0 ${replies.join("; ")}.`;
}

/** Never more than the limit in memory. */
async function collect(stream: SMTPServerDataStream, maxBytes: number): Promise<Buffer> {
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
  if (stream.sizeExceeded || bytes > maxBytes) {
    throw smtpError(552, `5.3.4 Message too big: the limit is ${maxBytes} bytes.`);
  }
  return Buffer.concat(chunks);
}
