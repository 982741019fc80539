import { Badge, type BadgeTone } from "@/components/ui/badge";

const STATUS_TONE: Record<string, BadgeTone> = {
  pending: "info",
  sending: "info",
  succeeded: "success",
  failed: "danger",
};

/** A delivery's status; a pending one that has been tried already is a retry waiting for its time. */
export function DeliveryStatusBadge({ status, attempts }: { status: string; attempts: number }) {
  const label = status === "pending" && attempts > 0 ? "retrying" : status;
  return (
    <span data-testid="delivery-status">
      <Badge tone={label === "retrying" ? "warning" : (STATUS_TONE[status] ?? "neutral")}>{label}</Badge>
    </span>
  );
}

/** An endpoint's state: enabled, disabled by a person, or disabled by the service (with why). */
export function EndpointStateBadge({ enabled, disabledReason }: { enabled: boolean; disabledReason: string | null }) {
  if (enabled) return <Badge tone="success">Enabled</Badge>;
  return (
    <Badge tone={disabledReason ? "danger" : "neutral"}>{disabledReason ? "Disabled by Postwerk" : "Disabled"}</Badge>
  );
}

/** The last answer of a delivery in a few words: HTTP status and latency, or the error. */
export function LastResponse({
  lastStatus,
  lastLatencyMs,
  lastError,
}: {
  lastStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
}) {
  if (lastStatus === null && !lastError) return <span className="text-slate-400">not tried yet</span>;
  return (
    <span className="text-xs" data-testid="last-response">
      {lastStatus !== null ? <span className="font-mono">HTTP {lastStatus}</span> : null}
      {lastLatencyMs !== null ? <span className="text-slate-500"> · {lastLatencyMs} ms</span> : null}
      {lastError ? <span className="block break-words text-red-700">{lastError}</span> : null}
    </span>
  );
}
