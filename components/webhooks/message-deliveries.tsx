import Link from "next/link";
import { Card } from "@/components/ui/card";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import type { MessageDelivery } from "@/lib/flows/webhooks/list-message-deliveries";
import { AutoRefresh } from "./auto-refresh";
import { DeliveryStatusBadge, LastResponse } from "./delivery-badges";

/** The message page's webhook deliveries: one row per event and endpoint, newest event first. Nothing when the workspace has no endpoint. */
export function MessageDeliveries({
  deliveries,
  hasEndpoints,
}: {
  deliveries: MessageDelivery[];
  hasEndpoints: boolean;
}) {
  if (!hasEndpoints) return null;
  return (
    <Card
      title="Webhook deliveries"
      id="webhooks"
      description="This message's events as sent to the workspace's webhook endpoints."
    >
      <AutoRefresh
        active={deliveries.some((delivery) => delivery.status === "pending" || delivery.status === "sending")}
      />
      {deliveries.length === 0 ? (
        <p className="text-sm text-slate-600">None (sandbox messages send no webhooks).</p>
      ) : (
        <Table label="Webhook deliveries">
          <THead>
            <Th>Event</Th>
            <Th>Endpoint</Th>
            <Th>Status</Th>
            <Th>Attempts</Th>
            <Th>Last response</Th>
            <Th>Created</Th>
          </THead>
          <TBody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id} data-testid="message-webhook-row">
                <Td className="font-mono text-xs">
                  <Link
                    href={`/webhooks/${delivery.endpointId}/deliveries/${delivery.id}`}
                    className="text-indigo-600 hover:underline"
                  >
                    {delivery.eventType}
                  </Link>
                </Td>
                <Td className="font-mono text-xs break-all">
                  <Link href={`/webhooks/${delivery.endpointId}`} className="hover:underline">
                    {delivery.endpoint.url}
                  </Link>
                </Td>
                <Td>
                  <DeliveryStatusBadge status={delivery.status} attempts={delivery.attempts} />
                </Td>
                <Td className="text-right tabular-nums">{delivery.attempts}</Td>
                <Td>
                  <LastResponse
                    lastStatus={delivery.lastStatus}
                    lastLatencyMs={delivery.lastLatencyMs}
                    lastError={delivery.lastError}
                  />
                </Td>
                <Td className="whitespace-nowrap">
                  <Timestamp value={new Date(delivery.createdAt)} />
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
    </Card>
  );
}
