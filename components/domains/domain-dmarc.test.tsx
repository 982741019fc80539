import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { DmarcSummary } from "@/lib/domain/domains/dmarc-summary";
import { DomainDmarc } from "./domain-dmarc";

const text = (summary: DmarcSummary) =>
  renderToStaticMarkup(<DomainDmarc summary={summary} />)
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'");

const empty: DmarcSummary = {
  days: 30,
  reports: 0,
  reporters: [],
  policy: null,
  messages: 0,
  passing: 0,
  passRate: null,
  failing: { ours: 0, known: 0, unknown: 0 },
  sources: [],
};

const source = (sourceIp: string, kind: "ours" | "known" | "unknown", service: string | null, passing: number) => ({
  sourceIp,
  reverseDns: kind === "unknown" ? null : `mail.${sourceIp}.example`,
  kind,
  service,
  messages: 100,
  passing,
  spfAligned: passing,
  dkimAligned: passing,
});

describe("the domain page's DMARC reports", () => {
  it("without reports, says how to receive them", () => {
    expect(text(empty)).toBe(
      "No DMARC reports in the last 30 days. Route mail for a report address to the DMARC reports action (Inbound → Domains) and name it in your DMARC record's rua= tag.",
    );
  });

  it("says the pass rate, what a stricter policy would stop, and asks to fix our own and known failures first", () => {
    const html = renderToStaticMarkup(
      <DomainDmarc
        summary={{
          ...empty,
          reports: 1,
          reporters: ["google.com"],
          policy: "none",
          messages: 300,
          passing: 247,
          passRate: 247 / 300,
          failing: { ours: 1, known: 2, unknown: 50 },
          sources: [
            source("203.0.113.25", "ours", "this deployment's relay (203.0.113.25)", 99),
            source("209.85.220.41", "known", "Google", 98),
            source("198.51.100.77", "unknown", null, 50),
          ],
        }}
      />,
    );
    const words = html.replace(/<[^>]+>/g, "");
    expect(words).toContain("1 report in the last 30 days, from google.com. Policy seen: p=none.");
    expect(words).toContain("82.3 % of 300 messages pass DMARC");
    expect(words).toContain(
      "At p=quarantine or p=reject, 50 messages from unknown sources would be stopped (possible spoofing); 1 from your own sending path; 2 from known services.",
    );
    expect(words).toContain("Fix these first: 1 message from your own sending path and 2 messages from known services");
    expect(html).toContain(">This deployment<");
    expect(html).toContain(">Google<");
    expect(html).toContain(">Unknown<");
    expect(html).toContain('data-kind="unknown" data-ip="198.51.100.77"');
    expect(words).toContain("50 (50 %)");
  });

  it("with nothing failing, says a stricter policy would stop none of it", () => {
    const summary = { ...empty, reports: 2, reporters: ["a", "b"], messages: 5, passing: 5, passRate: 1 };
    expect(text(summary)).toContain("100 % of 5 messages pass DMARC");
    expect(text(summary)).toContain("No message failed DMARC: p=quarantine or p=reject would stop none of this mail.");
  });
});
