import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { InboundDomainForm } from "@/components/dashboard/inbound/inbound-domain-form";
import { DomainStatusBadge } from "@/components/domains/domain-status-badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { inboundMxHost } from "@/lib/domain/inbound/inbound-domain-name";
import { listInboundDomains } from "@/lib/domain/inbound/list-inbound-domains";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { env } from "@/lib/foundation/env";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { addInboundDomainAction } from "./actions";

export const metadata: Metadata = { title: "Inbound domains" };

// Domains whose mail comes here: each with an MX record naming this server, and routes that say what to do with it.
export default async function InboundDomainsPage() {
  await connection();
  const { workspace, role } = await requireDashboard();
  const canManage = hasRole(role, "ADMIN");
  const domains = await listInboundDomains(workspace.id);
  const mxHost = inboundMxHost();
  return (
    <div className="space-y-6">
      <Link href="/inbound" className="text-sm text-indigo-600 hover:underline">
        ← Inbound mail
      </Link>
      <PageHeader
        title="Inbound domains and routes"
        description={
          <>
            Mail to a verified inbound domain is stored and routed; mail to any other address is refused. Point the
            domain&apos;s MX record at <span className="font-mono break-all">{mxHost}</span>.
          </>
        }
      />
      <p className="text-sm text-slate-600" data-testid="inbound-local-note">
        Replies to this workspace&apos;s messages need no domain: they come back through their reply address.
        {env().DOMAIN_VERIFICATION === "off" ? " DOMAIN_VERIFICATION=off: domains count as verified when added." : null}
      </p>
      {canManage ? (
        <Card title="Add an inbound domain" id="add-inbound-domain">
          <InboundDomainForm action={addInboundDomainAction} />
        </Card>
      ) : null}
      {domains.length === 0 ? (
        <EmptyState title="No inbound domains yet">
          {canManage ? "Add a domain or subdomain to receive mail for above." : "An admin adds the inbound domains."}
        </EmptyState>
      ) : (
        <Table label="Inbound domains">
          <THead>
            <Th>Domain</Th>
            <Th>Status</Th>
            <Th>Last checked</Th>
            <Th>Last check</Th>
          </THead>
          <TBody>
            {domains.map((domain) => (
              <tr key={domain.id} data-testid="inbound-domain-row">
                <Td>
                  <Link
                    href={`/inbound/domains/${domain.id}`}
                    className="font-medium break-all text-indigo-600 hover:underline"
                  >
                    {domain.name}
                  </Link>
                </Td>
                <Td>
                  <DomainStatusBadge status={domain.status} />
                </Td>
                <Td className="whitespace-nowrap">
                  {domain.lastCheckedAt ? (
                    <Timestamp value={domain.lastCheckedAt} />
                  ) : (
                    <span className="text-slate-400">never</span>
                  )}
                </Td>
                <Td className="min-w-48 text-slate-600">
                  {domain.lastCheckError ?? (domain.lastCheckedAt ? "MX record found" : "—")}
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}
