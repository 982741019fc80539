import "server-only";
import { verifyBounceLocalPart } from "@/lib/foundation/crypto/bounce-token";
import { log } from "@/lib/foundation/log";
import { metrics } from "@/lib/foundation/metrics/metrics";
import { recordProviderEvent, type MessageRef } from "@/lib/delivery/provider-events/record-provider-event";
import { classifyReport } from "./classify-report";
import { parseReport, type InboundReport } from "./parse-report";

/** Who a received report is for: the messages its verified RCPT TO tokens name, or the feedback-loop address. */
export interface ReportRecipients {
  messageIds: string[];
  /** It was sent to fbl@BOUNCE_DOMAIN: the message is found from the attached original. */
  feedbackLoop: boolean;
}

export interface IngestedReport {
  kind: InboundReport["kind"];
  /** Events recorded now (duplicates of an earlier delivery of the same report are not counted). */
  recorded: number;
  duplicates: number;
  /** Messages named that no longer exist (erased workspaces): logged, nothing to record. */
  unknown: number;
}

/**
 * Parse, classify and record each event per message (docs/delivery.md#bounces-from-any-smtp-relay), keyed by the
 * report's Message-ID or hash, so a report delivered twice is recorded once. Throws on a database failure (451, retry).
 */
export async function ingestReport(raw: Buffer, to: ReportRecipients): Promise<IngestedReport> {
  const report = parseReport(raw);
  const messageIds = new Set(to.messageIds);
  // fbl@ takes complaints only: anything else there names no verified return path, so it is not trusted.
  if (to.feedbackLoop && report.kind === "arf") {
    const found = originalMessageId(report);
    if (found) messageIds.add(found);
  }
  const refs = [...messageIds].map((messageId): MessageRef => ({ messageId }));
  const result: IngestedReport = { kind: report.kind, recorded: 0, duplicates: 0, unknown: 0 };
  if (!refs.length) {
    log.warn("inbound report names no message of ours", {
      kind: report.kind,
      subject: report.subject,
      from: report.from,
    });
    metrics().providerEvents.inc({ provider: "inbound", type: report.kind, result: "ignored" });
    return result;
  }
  const events = classifyReport(report);
  // Dated when received: a report's Date has whole seconds and the sender's clock, so it could precede the SENT it answers.
  const at = new Date();
  for (const ref of refs) {
    for (const event of events) {
      const outcome = await recordProviderEvent(ref, {
        source: "inbound",
        type: event.type,
        code: event.code,
        message: event.message,
        at,
        providerEventId: `inbound:${report.key}:${event.key}`,
        details: { ...event.details, reportKind: report.kind, reportDate: report.date?.toISOString() ?? null },
        suppress: event.suppress,
        recipients: event.recipients,
      });
      if (outcome.outcome === "recorded") result.recorded++;
      else if (outcome.outcome === "duplicate") result.duplicates++;
      else result.unknown++;
    }
    if (result.unknown) log.warn("inbound report for a message that no longer exists", { ref, kind: report.kind });
  }
  return result;
}

/** From the attached original: its signed Return-Path token, else its Message-ID (only its recipients saw it). */
function originalMessageId(report: InboundReport): string | null {
  const original = report.original;
  if (!original) return null;
  const local = /<?([^@<>\s]+)@/.exec(original.returnPath ?? "")?.[1];
  const fromToken = local ? verifyBounceLocalPart(local) : null;
  if (fromToken) return fromToken;
  return /<(em_[0-9A-Za-z]{16})@[^>]+>/.exec(original.messageId ?? "")?.[1] ?? null;
}
