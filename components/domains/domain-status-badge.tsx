import { Badge, type BadgeTone } from "@/components/ui/badge";

const TONES: Record<string, BadgeTone> = { VERIFIED: "success", PENDING: "warning", FAILED: "danger" };
const LABELS: Record<string, string> = { VERIFIED: "Verified", PENDING: "Pending", FAILED: "Failed" };

/** PENDING: never checked; FAILED: the last check found a record missing or wrong; VERIFIED: may send. */
export function DomainStatusBadge({ status }: { status: string }) {
  return (
    <span data-testid="domain-status">
      <Badge tone={TONES[status] ?? "neutral"}>{LABELS[status] ?? status}</Badge>
    </span>
  );
}
