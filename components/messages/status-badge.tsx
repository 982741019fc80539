import { Badge, type BadgeTone } from "@/components/ui/badge";

const STATUS_TONES: Record<string, BadgeTone> = {
  PENDING: "info",
  SUCCEEDED: "success",
  PAUSED: "warning",
  FAILED: "danger",
  DELETED: "neutral",
};

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? "neutral"}>{status}</Badge>;
}

/** Timeline codes by what they mean for the sender: problems red, delivery green, engagement blue. */
export function eventTone(code: string): BadgeTone {
  if (/_ERROR$|BOUNCE|COMPLAINT/.test(code)) return "danger";
  if (/DELIVERED|SENT_PROVIDER/.test(code)) return "success";
  if (/DELAYED|UNCONFIRMED|SUPPRESSED|UNSUBSCRIBED/.test(code)) return "warning";
  if (/OPEN|CLICKED/.test(code)) return "info";
  return "neutral";
}
