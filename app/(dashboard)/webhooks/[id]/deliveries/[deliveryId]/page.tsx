import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { isNotFound } from "@/components/insights/page-params";
import { AutoRefresh } from "@/components/webhooks/auto-refresh";
import { DeliveryStatusBadge, LastResponse } from "@/components/webhooks/delivery-badges";
import { ResendEventButton } from "@/components/webhooks/replay-form";
import { Card } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { DescriptionList } from "@/components/ui/description-list";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { getDeliveryDetail } from "@/lib/flows/webhooks/list-deliveries";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { replayAction } from "../../../actions";

type Props = { params: Promise<{ id: string; deliveryId: string }> };

export const metadata: Metadata = { title: "Webhook delivery" };

const at = (iso: string | null) => (iso ? <Timestamp value={new Date(iso)} /> : "—");

// One delivery: every attempt with the receiver's answer, and the payload viewer (as the next attempt would send it).
export default async function WebhookDeliveryPage({ params }: Props) {
  await connection();
  const { id, deliveryId } = await params;
  const { workspace, role } = await requireDashboard();
  const delivery = await getDeliveryDetail(workspace.id, id, deliveryId).catch((error) =>
    isNotFound(error) ? null : Promise.reject(error),
  );
  if (!delivery) notFound();
  return (
    <div className="space-y-6">
      <AutoRefresh active={delivery.status === "pending" || delivery.status === "sending"} />
      <div>
        <Link href={`/webhooks/${id}`} className="text-sm text-indigo-600 hover:underline">
          ← The endpoint&apos;s deliveries
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <DeliveryStatusBadge status={delivery.status} attempts={delivery.attempts} />
          <code className="font-mono text-sm">{delivery.eventType}</code>
        </div>
        <h1 className="mt-2 font-mono text-base font-semibold break-all text-slate-900">{delivery.id}</h1>
        {hasRole(role, "ADMIN") && delivery.eventType !== "webhook.test" ? (
          <div className="mt-3">
            <ResendEventButton id={id} eventId={delivery.eventId} action={replayAction} />
          </div>
        ) : null}
      </div>
      <Card title="Delivery" id="delivery">
        <DescriptionList
          terms="words"
          items={[
            { term: "Event id (webhook-id)", value: <code className="font-mono text-xs">{delivery.eventId}</code> },
            {
              term: "Message",
              value: delivery.emailMessageId ? (
                <Link
                  href={`/emails/${delivery.emailMessageId}`}
                  className="font-mono text-xs text-indigo-600 hover:underline"
                >
                  {delivery.emailMessageId}
                </Link>
              ) : (
                "—"
              ),
            },
            { term: "Attempts", value: String(delivery.attempts) },
            {
              term: "Last response",
              value: (
                <LastResponse
                  lastStatus={delivery.lastStatus}
                  lastLatencyMs={delivery.lastLatencyMs}
                  lastError={delivery.lastError}
                />
              ),
            },
            { term: "Created", value: at(delivery.createdAt) },
            { term: "Next attempt", value: at(delivery.nextAttemptAt) },
          ]}
        />
      </Card>
      <Card title="Attempts" id="attempts" description="Oldest first, with the first 4 KB of each answer.">
        {delivery.attemptLog.length === 0 ? (
          <EmptyState title="Not tried yet">The first attempt is made as soon as a worker takes it.</EmptyState>
        ) : (
          <Table label="Attempts">
            <THead>
              <Th>#</Th>
              <Th>Time</Th>
              <Th>HTTP status</Th>
              <Th>Latency</Th>
              <Th>Answer or error</Th>
            </THead>
            <TBody>
              {delivery.attemptLog.map((attempt) => (
                <tr key={attempt.id} data-testid="attempt-row">
                  <Td className="tabular-nums">{attempt.attempt}</Td>
                  <Td className="whitespace-nowrap">{at(attempt.createdAt)}</Td>
                  <Td className="font-mono text-xs" data-testid="attempt-status">
                    {attempt.status ?? "—"}
                  </Td>
                  <Td className="tabular-nums">{attempt.latencyMs === null ? "—" : `${attempt.latencyMs} ms`}</Td>
                  <Td className="text-xs">
                    {attempt.error ? <p className="max-w-xl break-words text-red-700">{attempt.error}</p> : null}
                    {attempt.responseBody ? (
                      <pre className="max-h-40 max-w-xl overflow-auto font-mono break-all whitespace-pre-wrap text-slate-700">
                        {attempt.responseBody}
                      </pre>
                    ) : null}
                  </Td>
                </tr>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      <Card
        title="Payload"
        id="payload"
        description="The JSON body, as the next attempt (or a resend) sends it; signed with the webhook-id, webhook-timestamp and webhook-signature headers."
      >
        {delivery.payload ? (
          <CodeBlock label="Webhook payload">{JSON.stringify(delivery.payload, null, 2)}</CodeBlock>
        ) : (
          <p className="text-sm text-slate-600">The event is no longer kept (WEBHOOK_LOG_RETENTION_DAYS).</p>
        )}
      </Card>
    </div>
  );
}
