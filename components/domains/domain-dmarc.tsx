import { Badge } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import type { DmarcSource, DmarcSummary } from "@/lib/domain/domains/dmarc-summary";

const count = (value: number) => value.toLocaleString("en");
const plural = (value: number, one: string, many = `${one}s`) => `${count(value)} ${value === 1 ? one : many}`;

/** A share as a percentage with at most one decimal: 0.94615 → "94.6 %", 1 → "100 %". */
function percent(rate: number): string {
  return `${(Math.round(rate * 1000) / 10).toLocaleString("en")} %`;
}

/**
 * The last 30 days of a domain's DMARC aggregate reports (docs/deliverability.md#dmarc-reports): who reported, the
 * policy seen, how much mail passes DMARC, what a stricter policy would stop, and every source that sent as the domain.
 * Without reports, how to start receiving them.
 */
export function DomainDmarc({ summary }: { summary: DmarcSummary }) {
  if (summary.reports === 0) {
    return (
      <div data-testid="dmarc">
        <p className="text-sm text-slate-600">
          No DMARC reports in the last {summary.days} days. Route mail for a report address to the DMARC reports action
          (Inbound → Domains) and name it in your DMARC record&apos;s <code className="font-mono">rua=</code> tag.
        </p>
      </div>
    );
  }
  return (
    <div data-testid="dmarc" className="space-y-4">
      <DmarcOverview summary={summary} />
      <DmarcFailing summary={summary} />
      {summary.sources.length > 0 ? <DmarcSources sources={summary.sources} /> : null}
    </div>
  );
}

function DmarcOverview({ summary }: { summary: DmarcSummary }) {
  return (
    <div className="space-y-1 text-sm text-slate-700">
      <p>
        <span className="font-medium text-slate-900">{plural(summary.reports, "report")}</span> in the last{" "}
        {summary.days} days, from <span data-testid="dmarc-reporters">{summary.reporters.join(", ")}</span>.
        {summary.policy ? (
          <>
            {" "}
            Policy seen: <code className="font-mono text-slate-900">p={summary.policy}</code>.
          </>
        ) : null}
      </p>
      <p data-testid="dmarc-pass-rate">
        {summary.passRate === null ? (
          "The reports name no messages."
        ) : (
          <>
            <span className="text-base font-semibold text-slate-900 tabular-nums">{percent(summary.passRate)}</span> of{" "}
            {plural(summary.messages, "message")} pass DMARC (SPF or DKIM aligned).
          </>
        )}
      </p>
    </div>
  );
}

/** What p=quarantine or p=reject would stop; failures from our own path or known services are to fix first. */
function DmarcFailing({ summary }: { summary: DmarcSummary }) {
  const { ours, known, unknown } = summary.failing;
  if (ours + known + unknown === 0) {
    return (
      <p data-testid="dmarc-failing" className="text-sm text-slate-700">
        No message failed DMARC: p=quarantine or p=reject would stop none of this mail.
      </p>
    );
  }
  const strong = (value: number) => (value > 0 ? "font-semibold text-amber-800" : "");
  return (
    <div data-testid="dmarc-failing" className="space-y-2 text-sm text-slate-700">
      <p>
        At <code className="font-mono">p=quarantine</code> or <code className="font-mono">p=reject</code>,{" "}
        <span className="font-medium text-slate-900">{plural(unknown, "message")}</span> from unknown sources would be
        stopped (possible spoofing); <span className={strong(ours)}>{count(ours)} from your own sending path</span>;{" "}
        <span className={strong(known)}>{count(known)} from known services</span>.
      </p>
      {ours + known > 0 ? (
        <p
          data-testid="dmarc-fix-first"
          className="rounded-md bg-amber-50 px-3 py-2 text-amber-800 ring-1 ring-amber-200 ring-inset"
        >
          Fix these first: {fixFirstWords(ours, known)} fail DMARC. Set up SPF or DKIM for them before tightening the
          policy, or a stricter policy stops your own mail too.
        </p>
      ) : null}
    </div>
  );
}

function fixFirstWords(ours: number, known: number): string {
  const parts = [
    ours > 0 ? `${plural(ours, "message")} from your own sending path` : null,
    known > 0 ? `${plural(known, "message")} from known services` : null,
  ].filter(Boolean);
  return parts.join(" and ");
}

function DmarcSources({ sources }: { sources: DmarcSource[] }) {
  return (
    <Table label="DMARC sources">
      <THead>
        <Th>Source IP</Th>
        <Th>Reverse DNS</Th>
        <Th>Kind</Th>
        <Th className="text-right">Messages</Th>
        <Th className="text-right">Passing</Th>
        <Th className="text-right">SPF aligned</Th>
        <Th className="text-right">DKIM aligned</Th>
      </THead>
      <TBody>
        {sources.map((source) => (
          <tr key={source.sourceIp} data-testid="dmarc-source" data-kind={source.kind} data-ip={source.sourceIp}>
            <Td className="font-mono text-xs whitespace-nowrap text-slate-900">{source.sourceIp}</Td>
            <Td className="font-mono text-xs break-all text-slate-700">{source.reverseDns ?? "—"}</Td>
            <Td>
              <SourceKindBadge source={source} />
            </Td>
            <Td className="text-right tabular-nums">{count(source.messages)}</Td>
            <Td className="text-right whitespace-nowrap tabular-nums">
              {count(source.passing)}{" "}
              <span className="text-xs text-slate-500">
                ({source.messages > 0 ? percent(source.passing / source.messages) : "—"})
              </span>
            </Td>
            <Td className="text-right tabular-nums">{count(source.spfAligned)}</Td>
            <Td className="text-right tabular-nums">{count(source.dkimAligned)}</Td>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}

function SourceKindBadge({ source }: { source: DmarcSource }) {
  if (source.kind === "ours") return <Badge tone="success">This deployment</Badge>;
  if (source.kind === "known") return <Badge tone="info">{source.service ?? "Known service"}</Badge>;
  return <Badge tone="warning">Unknown</Badge>;
}
