import { Badge, type BadgeTone } from "@/components/ui/badge";

const STATUS_TONES: Record<string, BadgeTone> = {
  PENDING: "info",
  SUCCEEDED: "success",
  PAUSED: "warning",
  FAILED: "danger",
  DELETED: "neutral",
  CANCELLED: "neutral",
};

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? "neutral"}>{status}</Badge>;
}
