import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import {
  InvalidLink,
  isInvalidParameter,
  isNotFound,
  toUrlParams,
  type SearchParams,
} from "@/components/insights/page-params";
import { DeliveryFilters, DeliveryLog } from "@/components/webhooks/delivery-log";
import { EndpointControls } from "@/components/webhooks/endpoint-controls";
import { EditEndpointForm } from "@/components/webhooks/endpoint-form";
import { EndpointStateBadge } from "@/components/webhooks/delivery-badges";
import { ReplayForm } from "@/components/webhooks/replay-form";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { hrefWith, Pager } from "@/components/ui/pager";
import { Timestamp } from "@/components/ui/timestamp";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { listDeliveries, parseDeliveryListQuery } from "@/lib/flows/webhooks/list-deliveries";
import { getEndpointOrThrow } from "@/lib/flows/webhooks/manage-endpoints";
import { serializeDelivery } from "@/lib/flows/webhooks/serialize";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import {
  deleteEndpointAction,
  replayAction,
  rotateSecretAction,
  sendTestEventAction,
  setEndpointEnabledAction,
  updateEndpointAction,
} from "../actions";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> };

export const metadata: Metadata = { title: "Webhook endpoint" };

const FILTERS = ["status", "eventType", "emailMessageId"] as const;

// One endpoint: its state and controls, and the log of its deliveries (filters and cursors in the URL).
export default async function WebhookEndpointPage({ params, searchParams }: Props) {
  await connection();
  const { id } = await params;
  const { workspace, role } = await requireDashboard();
  const canManage = hasRole(role, "ADMIN");
  const endpoint = await getEndpointOrThrow(workspace.id, id).catch((error) =>
    isNotFound(error) ? null : Promise.reject(error),
  );
  if (!endpoint) notFound();
  const query = new URLSearchParams([...toUrlParams(await searchParams)].filter(([, value]) => value !== ""));
  const keep = Object.fromEntries(FILTERS.map((name) => [name, query.get(name)]));
  const base = `/webhooks/${endpoint.id}`;
  let log;
  try {
    log = await listDeliveries(workspace.id, endpoint.id, parseDeliveryListQuery(query));
  } catch (error) {
    if (!isInvalidParameter(error)) throw error;
    log = error;
  }
  return (
    <div className="space-y-6">
      <div>
        <Link href="/webhooks" className="text-sm text-indigo-600 hover:underline">
          ← All endpoints
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <EndpointStateBadge enabled={endpoint.enabled} disabledReason={endpoint.disabledReason} />
          <span className="font-mono text-xs text-slate-500">{endpoint.id}</span>
          <CopyButton value={endpoint.id} label="Copy the endpoint id" />
        </div>
        <h1 className="mt-2 font-mono text-lg font-semibold break-all text-slate-900">{endpoint.url}</h1>
        {endpoint.description ? <p className="text-sm text-slate-600">{endpoint.description}</p> : null}
        {endpoint.disabledReason ? (
          <p
            className="mt-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200 ring-inset"
            data-testid="disabled-reason"
          >
            Disabled by Postwerk: {endpoint.disabledReason}
          </p>
        ) : null}
        <p className="mt-2 text-xs text-slate-500">
          {endpoint.eventTypes ? `Receives ${endpoint.eventTypes.join(", ")}` : "Receives every event type"} · created{" "}
          <Timestamp value={endpoint.createdAt} /> by {endpoint.createdBy ?? "—"} · updated{" "}
          <Timestamp value={endpoint.updatedAt} /> by {endpoint.updatedBy ?? "—"}
          {endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > new Date() ? (
            <>
              {" "}
              · the previous secret also signs until <Timestamp value={endpoint.previousSecretExpiresAt} />
            </>
          ) : null}
        </p>
      </div>
      {canManage ? (
        <>
          <EndpointControls
            id={endpoint.id}
            enabled={endpoint.enabled}
            disabledReason={endpoint.disabledReason}
            missedSince={(endpoint.failingSince ?? endpoint.updatedAt).toISOString()}
            actions={{
              setEnabled: setEndpointEnabledAction,
              rotate: rotateSecretAction,
              test: sendTestEventAction,
              remove: deleteEndpointAction,
            }}
          />
          <div className="grid gap-6 lg:grid-cols-2">
            <Card title="Edit" id="edit-endpoint">
              <EditEndpointForm
                action={updateEndpointAction}
                endpoint={{
                  id: endpoint.id,
                  url: endpoint.url,
                  description: endpoint.description,
                  eventTypes: endpoint.eventTypes,
                }}
              />
            </Card>
            <Card
              title="Replay all failed since…"
              id="replay"
              description="New deliveries of the same events (same webhook-id): a receiver that already has one dedupes it."
            >
              {endpoint.enabled ? (
                <ReplayForm id={endpoint.id} action={replayAction} />
              ) : (
                <p className="text-sm text-slate-600">Enable the endpoint to replay.</p>
              )}
            </Card>
          </div>
        </>
      ) : null}
      <Card
        title="Deliveries"
        id="deliveries"
        description="Newest first; open one for its attempts, the responses and the payload."
      >
        <div className="space-y-4">
          <DeliveryFilters action={base} values={keep} />
          {log instanceof Error ? (
            <InvalidLink error={log} firstPageHref={base} />
          ) : (
            <>
              <DeliveryLog
                endpointId={endpoint.id}
                deliveries={log.items.map(serializeDelivery)}
                filtered={FILTERS.some((name) => keep[name])}
              />
              <Pager
                previousHref={
                  log.meta["cursor.before"]
                    ? hrefWith(base, { ...keep, "cursor.before": log.meta["cursor.before"] })
                    : null
                }
                nextHref={
                  log.meta["cursor.after"]
                    ? hrefWith(base, { ...keep, "cursor.after": log.meta["cursor.after"] })
                    : null
                }
                summary={`${log.meta.count} on this page`}
              />
            </>
          )}
        </div>
      </Card>
    </div>
  );
}
