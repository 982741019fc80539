import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { DomainDmarc } from "@/components/domains/domain-dmarc";
import { DomainRecords } from "@/components/domains/domain-records";
import { DomainRequirements } from "@/components/domains/domain-requirements";
import { DomainStatusBadge } from "@/components/domains/domain-status-badge";
import { LocalVerificationNote } from "@/components/domains/local-verification-note";
import { SpfMergeNote } from "@/components/domains/spf-merge-note";
import { Card } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { PageHeader } from "@/components/ui/page-header";
import { Timestamp } from "@/components/ui/timestamp";
import { dmarcSummary } from "@/lib/domain/domains/dmarc-summary";
import { getDomainOrThrow, type Domain } from "@/lib/domain/domains/get-domain-or-throw";
import { expectedDnsRecords } from "@/lib/domain/domains/verify-domain";
import { lastCheckWords } from "@/lib/domain/domains/last-check-words.shared";
import { latestRequirementCheck } from "@/lib/domain/domains/requirements/requirement-history";
import { now } from "@/lib/foundation/clock";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { verifyDomainAction } from "../actions";

type Props = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: "Domain" };

// One domain: the DNS records to publish, the outcome of the last check, the sender requirements and what the DMARC
// aggregate reports of the last 30 days say. Another workspace's id is a 404.
export default async function DomainPage({ params }: Props) {
  await connection();
  const { id } = await params;
  const { workspace, role } = await requireDashboard();
  const domain = await findDomain(workspace.id, id);
  if (!domain) notFound();
  const [requirements, dmarc] = await Promise.all([
    latestRequirementCheck(workspace.id, domain.id),
    dmarcSummary(workspace.id, domain.id, now()),
  ]);
  return (
    <div className="space-y-6">
      <Link href="/domains" className="text-sm text-indigo-600 hover:underline">
        ← All domains
      </Link>
      <PageHeader
        title={domain.name}
        description={<span className="font-mono text-xs">{domain.id}</span>}
        actions={<DomainStatusBadge status={domain.status} />}
      />
      <StatusCard domain={domain} />
      <RecordsCard domain={domain} workspaceId={workspace.id} canVerify={hasRole(role, "ADMIN")} />
      <Card
        title="Sender requirements"
        id="requirements"
        description="What Gmail, Yahoo and Microsoft ask of senders, checked daily and with every DNS check. docs/deliverability.md explains each line."
      >
        <DomainRequirements check={requirements} />
      </Card>
      <Card
        title="DMARC reports"
        id="dmarc"
        description="What mailbox providers' DMARC aggregate reports of the last 30 days say: who sends as this domain and whether it passes. docs/deliverability.md#dmarc-reports explains them."
      >
        <DomainDmarc summary={dmarc} />
      </Card>
    </div>
  );
}

function StatusCard({ domain }: { domain: Domain }) {
  return (
    <Card title="Status" id="status">
      <DescriptionList
        terms="words"
        items={[
          { term: "Status", value: <DomainStatusBadge status={domain.status} /> },
          {
            term: "Verified",
            value: domain.verifiedAt ? <Timestamp value={domain.verifiedAt} /> : "Not verified",
          },
          {
            term: "Last checked",
            value: domain.lastCheckedAt ? <Timestamp value={domain.lastCheckedAt} /> : "Never",
          },
          {
            term: "Last check",
            value: <span data-testid="last-check-error">{lastCheckWords(domain)}</span>,
          },
        ]}
      />
    </Card>
  );
}

/** The TXT records to publish, Verify for admins, and what to do without public DNS or with an SPF record already. */
function RecordsCard({ domain, workspaceId, canVerify }: { domain: Domain; workspaceId: string; canVerify: boolean }) {
  const records = expectedDnsRecords(domain);
  const spf = records.find((record) => record.kind === "SPF");
  return (
    <Card
      title="DNS records"
      id="records"
      description="Publish these TXT records at your DNS provider. SPF and DKIM are required to verify; DMARC (p=none to start) is recommended."
    >
      <div className="space-y-4">
        <DomainRecords
          domainId={domain.id}
          records={records}
          verifyAction={canVerify ? verifyDomainAction : undefined}
        />
        {domain.status !== "VERIFIED" && env().DOMAIN_VERIFICATION === "dns" ? (
          <LocalVerificationNote
            domain={domain.name}
            workspaceId={workspaceId}
            dnsServers={Boolean(env().DNS_SERVERS)}
          />
        ) : null}
        {spf ? <SpfMergeNote domain={domain.name} ours={spf.value} /> : null}
      </div>
    </Card>
  );
}

async function findDomain(workspaceId: string, id: string): Promise<Domain | null> {
  try {
    return await getDomainOrThrow(workspaceId, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}
