import type { EventCode } from "@/lib/records/timeline/event-codes.shared";

export type EventSource = "resend" | "ses" | "inbound" | "simulator";

/** One provider report, already mapped to the timeline's words by its adapter. */
export interface ProviderEvent {
  source: EventSource;
  /** The provider's own event type (for metrics and the details), e.g. "email.bounced", "Bounce", "dsn". */
  type: string;
  code: EventCode;
  /** The human sentence of docs/api.md#decided-events (bounce diagnostic, delivery time, client…). */
  message: string;
  at: Date;
  /** Unique per report: the same report twice records one event. */
  providerEventId: string;
  details: Record<string, unknown>;
  /** A permanent bounce or a complaint: the address is not mailed again. */
  suppress?: "HARD_BOUNCE" | "COMPLAINT";
  /** The recipient the report concerns, when the provider names one (SES, a DSN, an ARF report). */
  recipients?: string[];
  bot?: boolean;
}

/** How a report names its message: the provider's id (Resend, SES) or ours (bounce token, simulator). */
export type MessageRef = ({ referenceId: string } | { messageId: string }) & {
  /** Only a message of this workspace: a workspace connection's events never touch another's messages. */
  workspaceId?: string;
};

export type ProviderEventResult =
  { outcome: "recorded" | "duplicate"; messageId: string } | { outcome: "unknown-message" };
