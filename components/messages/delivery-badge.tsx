import { Badge, type BadgeTone } from "@/components/ui/badge";
import { deliveryState, type DeliveryFacts, type DeliveryTone } from "@/lib/domain/messages/delivery-state.shared";

const TONES: Record<DeliveryTone, BadgeTone> = { good: "success", bad: "danger", neutral: "neutral", waiting: "info" };

/** The headline of a message: its delivery state (docs/dashboard.md#delivery-state), not the API's status. */
export function DeliveryBadge({ message }: { message: DeliveryFacts }) {
  const view = deliveryState(message);
  return (
    <span title={view.explanation} data-testid="delivery-state" data-state={view.state}>
      <Badge tone={TONES[view.tone]}>{view.state}</Badge>
    </span>
  );
}

/** The API's `status` beside the headline, labelled, for a reader matching the page to an API answer. */
export function ApiStatusNote({ status }: { status: string }) {
  return (
    <span className="text-xs whitespace-nowrap text-slate-500" data-testid="api-status">
      API status <span className="font-mono">{status}</span>
    </span>
  );
}
