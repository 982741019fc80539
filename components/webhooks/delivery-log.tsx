import Link from "next/link";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, Select } from "@/components/ui/field";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { WEBHOOK_EVENT_TYPES } from "@/lib/records/timeline/webhook-event-types.shared";
import { DELIVERY_STATUSES } from "@/lib/flows/webhooks/list-deliveries";
import type { serializeDelivery } from "@/lib/flows/webhooks/serialize";
import { AutoRefresh } from "./auto-refresh";
import { DeliveryStatusBadge, LastResponse } from "./delivery-badges";

type Delivery = ReturnType<typeof serializeDelivery>;

/** The attempt log's filters, a plain GET form: the filtered log is a shareable URL. */
export function DeliveryFilters({ action, values }: { action: string; values: Record<string, string | null> }) {
  return (
    <form method="get" action={action} className="flex flex-wrap items-end gap-3" data-testid="delivery-filters">
      <Field label="Status" htmlFor="filter-status">
        <Select id="filter-status" name="status" defaultValue={values.status ?? ""}>
          <option value="">any</option>
          {DELIVERY_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Event type" htmlFor="filter-type">
        <Select id="filter-type" name="eventType" defaultValue={values.eventType ?? ""}>
          <option value="">any</option>
          {[...WEBHOOK_EVENT_TYPES, "webhook.test"].map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Message id" htmlFor="filter-message">
        <Input
          id="filter-message"
          name="emailMessageId"
          placeholder="em_…"
          defaultValue={values.emailMessageId ?? ""}
          className="font-mono"
        />
      </Field>
      <Button type="submit" variant="secondary">
        Filter
      </Button>
    </form>
  );
}

/**
 * Deliveries of one endpoint, newest first. The page re-renders every 3 s while one is on its way, and
 * every 15 s otherwise, so new deliveries appear without a reload.
 */
export function DeliveryLog({
  endpointId,
  deliveries,
  filtered,
}: {
  endpointId: string;
  deliveries: Delivery[];
  filtered: boolean;
}) {
  const moving = deliveries.some((delivery) => delivery.status === "pending" || delivery.status === "sending");
  const refresh = <AutoRefresh active everyMs={moving ? 3000 : 15_000} />;
  if (deliveries.length === 0) {
    return (
      <>
        {refresh}
        <EmptyState title={filtered ? "No delivery matches these filters" : "No deliveries yet"}>
          {filtered ? "Clear a filter to see more." : "Send a test event, or send a message: its events appear here."}
        </EmptyState>
      </>
    );
  }
  return (
    <>
      {refresh}
      <Table label="Deliveries">
        <THead>
          <Th>Created</Th>
          <Th>Event</Th>
          <Th>Message</Th>
          <Th>Status</Th>
          <Th>Attempts</Th>
          <Th>Last response</Th>
          <Th>Next attempt</Th>
        </THead>
        <TBody>
          {deliveries.map((delivery) => (
            <tr key={delivery.id} data-testid="delivery-row" data-event-type={delivery.eventType}>
              <Td>
                <Link
                  href={`/webhooks/${endpointId}/deliveries/${delivery.id}`}
                  className="text-indigo-600 hover:underline"
                >
                  <Timestamp value={new Date(delivery.createdAt)} />
                </Link>
              </Td>
              <Td className="font-mono text-xs">{delivery.eventType}</Td>
              <Td className="font-mono text-xs">
                {delivery.emailMessageId ? (
                  <Link href={`/emails/${delivery.emailMessageId}`} className="text-indigo-600 hover:underline">
                    {delivery.emailMessageId}
                  </Link>
                ) : (
                  "—"
                )}
              </Td>
              <Td>
                <DeliveryStatusBadge status={delivery.status} attempts={delivery.attempts} />
              </Td>
              <Td className="text-right tabular-nums" data-testid="delivery-attempts">
                {delivery.attempts}
              </Td>
              <Td>
                <LastResponse
                  lastStatus={delivery.lastStatus}
                  lastLatencyMs={delivery.lastLatencyMs}
                  lastError={delivery.lastError}
                />
              </Td>
              <Td>
                {delivery.nextAttemptAt ? (
                  <Timestamp value={new Date(delivery.nextAttemptAt)} />
                ) : (
                  <span className="text-slate-400">—</span>
                )}
              </Td>
            </tr>
          ))}
        </TBody>
      </Table>
    </>
  );
}
