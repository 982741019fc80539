import Link from "next/link";
import { Timestamp } from "@/components/ui/timestamp";

/**
 * Above every dashboard page while the workspace's complaint or bounce rate is past half its automatic pause
 * threshold (docs/deliverability.md#complaint-guard): what crossed, and where to look before sending stops.
 */
export function DeliverabilityBanner({ warning }: { warning: { reason: string; at: Date } | null }) {
  if (!warning) return null;
  return (
    <div
      role="status"
      data-testid="deliverability-warning"
      className="mb-6 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p className="font-medium">Deliverability warning</p>
      <p className="mt-1">
        {warning.reason} Look at recent bounces and complaints on the{" "}
        <Link href="/emails" className="font-medium underline">
          Emails
        </Link>{" "}
        page and the sending state in{" "}
        <Link href="/settings#sending" className="font-medium underline">
          Settings
        </Link>
        .
      </p>
      <p className="mt-1 text-xs text-amber-800">
        Since <Timestamp value={warning.at} />
      </p>
    </div>
  );
}
