import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { DomainActions } from "@/components/dashboard/inbound/domain-actions";
import { RouteForm } from "@/components/dashboard/inbound/route-form";
import { RouteList } from "@/components/dashboard/inbound/route-list";
import { DomainStatusBadge } from "@/components/domains/domain-status-badge";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { DescriptionList } from "@/components/ui/description-list";
import { PageHeader } from "@/components/ui/page-header";
import { Timestamp } from "@/components/ui/timestamp";
import { getInboundDomainOrThrow, type InboundDomain } from "@/lib/domain/inbound/get-inbound-domain";
import { listInboundRoutes } from "@/lib/domain/inbound/list-inbound-routes";
import { serializeInboundDomain } from "@/lib/domain/inbound/serialize-inbound-domain";
import { listWorkflows } from "@/lib/flows/workflows/list-workflows";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { AppError } from "@/lib/foundation/errors";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import {
  deleteInboundDomainAction,
  deleteInboundRouteAction,
  saveInboundRouteAction,
  verifyInboundDomainAction,
} from "../actions";

type Props = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: "Inbound domain" };

// One inbound domain: the MX record to publish, its check, and its routes. Another workspace's id is a 404.
export default async function InboundDomainPage({ params }: Props) {
  await connection();
  const { id } = await params;
  const { workspace, role } = await requireDashboard();
  const domain = await findDomain(workspace.id, id);
  if (!domain) notFound();
  const canManage = hasRole(role, "ADMIN");
  const [routes, workflows] = await Promise.all([
    listInboundRoutes(workspace.id, { domain: domain.id, limit: 100, cursor: null }),
    canManage ? listWorkflows(workspace.id) : Promise.resolve([]),
  ]);
  const [mx] = serializeInboundDomain(domain).records;
  const workflowChoices = workflows.map((workflow) => ({ id: workflow.id, name: workflow.name }));
  return (
    <div className="space-y-6">
      <Link href="/inbound/domains" className="text-sm text-indigo-600 hover:underline">
        ← Inbound domains
      </Link>
      <PageHeader
        title={<span className="break-all">{domain.name}</span>}
        description={<span className="font-mono text-xs">{domain.id}</span>}
        actions={<DomainStatusBadge status={domain.status} />}
      />
      <Card title="MX record" id="mx" description="Publish it at your DNS provider, then verify.">
        <div className="space-y-4">
          <dl
            className="grid gap-2 text-sm sm:grid-cols-[6rem_minmax(0,1fr)_auto] sm:items-start"
            data-testid="mx-record"
          >
            <dt className="text-xs font-medium text-slate-500 sm:pt-1.5">Host</dt>
            <dd className="min-w-0 rounded bg-slate-50 px-2 py-1 font-mono text-xs break-all">{mx.host}</dd>
            <dd>
              <CopyButton value={mx.host} label="Copy MX host" />
            </dd>
            <dt className="text-xs font-medium text-slate-500 sm:pt-1.5">Type, priority</dt>
            <dd className="min-w-0 rounded bg-slate-50 px-2 py-1 font-mono text-xs">MX {mx.priority}</dd>
            <dd />
            <dt className="text-xs font-medium text-slate-500 sm:pt-1.5">Mail server</dt>
            <dd className="min-w-0 rounded bg-slate-50 px-2 py-1 font-mono text-xs break-all" data-testid="mx-value">
              {mx.value}
            </dd>
            <dd>
              <CopyButton value={mx.value} label="Copy MX value" />
            </dd>
          </dl>
          <DescriptionList
            terms="words"
            items={[
              { term: "Verified", value: domain.verifiedAt ? <Timestamp value={domain.verifiedAt} /> : "Not verified" },
              {
                term: "Last checked",
                value: domain.lastCheckedAt ? <Timestamp value={domain.lastCheckedAt} /> : "Never",
              },
              {
                term: "Last check",
                value: (
                  <span data-testid="last-check-error">
                    {domain.lastCheckError
                      ? `Last check failed: ${domain.lastCheckError}`
                      : domain.lastCheckedAt
                        ? "Passed: the MX record names this server"
                        : "Not checked yet."}
                  </span>
                ),
              },
            ]}
          />
          {canManage ? (
            <DomainActions
              domainId={domain.id}
              domainName={domain.name}
              verifyAction={verifyInboundDomainAction}
              deleteAction={deleteInboundDomainAction}
            />
          ) : null}
        </div>
      </Card>
      <Card
        title="Routes"
        id="routes"
        description="Most specific first: an exact address, then address+anything, then *@domain. Mail no route matches is refused."
      >
        <RouteList
          routes={routes.items}
          domainId={domain.id}
          domainName={domain.name}
          workflows={workflowChoices}
          saveAction={canManage ? saveInboundRouteAction : undefined}
          deleteAction={canManage ? deleteInboundRouteAction : undefined}
        />
      </Card>
      {canManage ? (
        <Card title="Add a route" id="add-route">
          <RouteForm
            action={saveInboundRouteAction}
            domainId={domain.id}
            domainName={domain.name}
            workflows={workflowChoices}
          />
        </Card>
      ) : null}
    </div>
  );
}

async function findDomain(workspaceId: string, id: string): Promise<InboundDomain | null> {
  try {
    return await getInboundDomainOrThrow(workspaceId, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}
