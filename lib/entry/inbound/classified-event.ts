import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import type { InboundReport } from "./parse-report";

/** One timeline event a report comes to, before it is tied to a message (ingest-report.ts). */
export interface ClassifiedEvent {
  code: EventCode;
  /** The report's kind and outcome for metrics and details: "dsn", "arf", "text", "auto-reply". */
  type: string;
  message: string;
  /** Distinguishes the events of one report (its recipients): part of the providerEventId. */
  key: string;
  suppress?: "HARD_BOUNCE" | "COMPLAINT";
  recipients?: string[];
  details: Record<string, unknown>;
}

export function unclassified(report: InboundReport, what: string): ClassifiedEvent {
  const subject = report.subject ? ` ("${report.subject}")` : "";
  return {
    code: "EMAIL_MESSAGE_UNCLASSIFIED_PROVIDER_EVENT",
    type: report.kind,
    key: "report",
    message: `${what}${subject} came back to the return path from ${report.from || "an unnamed sender"}; not classified, nothing suppressed.`,
    details: { reportSubject: report.subject, reportFrom: report.from, excerpt: report.text.slice(0, 500) },
  };
}
