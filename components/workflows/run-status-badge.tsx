import { Badge, type BadgeTone } from "@/components/ui/badge";

const TONES: Record<string, BadgeTone> = {
  RUNNING: "info",
  COMPLETED: "success",
  FAILED: "danger",
  SKIPPED: "neutral",
};

export function RunStatusBadge({ status }: { status: string }) {
  return <Badge tone={TONES[status] ?? "neutral"}>{status}</Badge>;
}
