import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { CreateEndpointForm } from "@/components/webhooks/endpoint-form";
import { EndpointStateBadge } from "@/components/webhooks/delivery-badges";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { listEndpoints, MAX_ENDPOINTS_PER_WORKSPACE } from "@/lib/flows/webhooks/manage-endpoints";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { createEndpointAction } from "./actions";

export const metadata: Metadata = { title: "Webhooks" };

// The workspace's webhook endpoints (docs/webhooks.md): where its events are sent, and in what state.
export default async function WebhooksPage() {
  await connection();
  const { workspace, role } = await requireDashboard();
  const canManage = hasRole(role, "ADMIN");
  const { items: endpoints } = await listEndpoints(workspace.id, { limit: MAX_ENDPOINTS_PER_WORKSPACE, cursor: null });
  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description="Every event of this workspace's live mail, signed (Standard Webhooks), in order per message, retried for more than a day, and logged. The same events can be pulled from GET /v1/events."
      />
      {canManage ? (
        <Card title="Add an endpoint" id="create-endpoint">
          <CreateEndpointForm action={createEndpointAction} />
        </Card>
      ) : (
        <p className="text-sm text-slate-600">Only admins and owners can add, change or replay endpoints.</p>
      )}
      {endpoints.length === 0 ? (
        <EmptyState title="No webhook endpoints yet">
          {canManage ? "Add one above to receive events." : "Ask an admin to add one."}
        </EmptyState>
      ) : (
        <Table label="Webhook endpoints">
          <THead>
            <Th>URL</Th>
            <Th>Events</Th>
            <Th>State</Th>
            <Th>Created</Th>
          </THead>
          <TBody>
            {endpoints.map((endpoint) => (
              <tr key={endpoint.id} data-testid={`endpoint-${endpoint.id}`}>
                <Td>
                  <Link
                    href={`/webhooks/${endpoint.id}`}
                    className="font-mono text-xs break-all text-indigo-600 hover:underline"
                  >
                    {endpoint.url}
                  </Link>
                  {endpoint.description ? <p className="text-xs text-slate-500">{endpoint.description}</p> : null}
                </Td>
                <Td className="font-mono text-xs">
                  {endpoint.eventTypes ? endpoint.eventTypes.join(", ") : "all events"}
                </Td>
                <Td>
                  <EndpointStateBadge enabled={endpoint.enabled} disabledReason={endpoint.disabledReason} />
                  {endpoint.disabledReason ? (
                    <p className="mt-1 text-xs text-red-700">{endpoint.disabledReason}</p>
                  ) : null}
                </Td>
                <Td className="whitespace-nowrap">
                  <Timestamp value={endpoint.createdAt} />
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}
