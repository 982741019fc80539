import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { AddDomainForm } from "@/components/domains/add-domain-form";
import { DomainStatusBadge } from "@/components/domains/domain-status-badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { listDomains } from "@/lib/domain/domains/list-domains";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { TEST_SENDER } from "@/lib/foundation/addresses/test-sender.shared";
import { env } from "@/lib/foundation/env";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { addDomainAction } from "../actions";

export const metadata: Metadata = { title: "Domains" };

// Sending domains: a From address must use one of these, verified.
export default async function DomainsPage() {
  await connection();
  const { workspace, role } = await requireDashboard();
  const canManage = hasRole(role, "ADMIN");
  const domains = await listDomains(workspace.id);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Domains"
        description="Messages may only be sent from verified domains. Publish a domain's SPF and DKIM records, then verify it."
      />
      <p className="text-sm text-slate-600" data-testid="domains-local-note">
        Every workspace may also send from the test sender <code className="font-mono">{TEST_SENDER}</code> while
        nothing leaves this machine (the local provider, the sandbox, simulator recipients).
        {env().DOMAIN_VERIFICATION === "dns"
          ? " A domain without public DNS cannot verify: open it to see how to verify it locally."
          : " DOMAIN_VERIFICATION=off: domains count as verified when added."}
      </p>
      {canManage ? (
        <Card title="Add a domain" id="add-domain">
          <AddDomainForm action={addDomainAction} />
        </Card>
      ) : null}
      {domains.length === 0 ? (
        <EmptyState title="No domains yet">
          {canManage ? "Add the domain you send from above." : "An admin adds the domains this workspace sends from."}
        </EmptyState>
      ) : (
        <Table label="Domains">
          <THead>
            <Th>Domain</Th>
            <Th>Status</Th>
            <Th>Last checked</Th>
            <Th>Last check</Th>
          </THead>
          <TBody>
            {domains.map((domain) => (
              <tr key={domain.id}>
                <Td>
                  <Link href={`/domains/${domain.id}`} className="font-medium text-indigo-600 hover:underline">
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
                  {domain.lastCheckError ?? (domain.lastCheckedAt ? "All records found" : "—")}
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}
