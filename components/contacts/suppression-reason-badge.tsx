import { Badge } from "@/components/ui/badge";

const LABELS: Record<string, string> = { HARD_BOUNCE: "Hard bounce", COMPLAINT: "Complaint", MANUAL: "Added by hand" };

export function SuppressionReasonBadge({ reason }: { reason: string }) {
  return <Badge tone={reason === "MANUAL" ? "neutral" : "danger"}>{LABELS[reason] ?? reason}</Badge>;
}
