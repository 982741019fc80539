import {
  formatRate,
  METRIC_LABELS,
  OVERVIEW_METRICS,
  rates,
  type MetricCounts,
  type OverviewMetric,
} from "@/lib/domain/insights/metrics.shared";

const RATE_OF: Partial<Record<OverviewMetric, { key: keyof ReturnType<typeof rates>; label: string }>> = {
  delivered: { key: "delivery", label: "delivery rate" },
  opened: { key: "open", label: "open rate" },
  clicked: { key: "click", label: "click rate" },
  bounced: { key: "bounce", label: "bounce rate" },
};

/** 14-day totals of live messages, with the rates beneath the metrics they belong to. */
export function OverviewTiles({ totals }: { totals: MetricCounts }) {
  const rate = rates(totals);
  return (
    <ul aria-label="Live totals, last 14 days" className="grid grid-cols-2 gap-3 sm:grid-cols-4 xl:grid-cols-8">
      {OVERVIEW_METRICS.map((metric) => {
        const ofMetric = RATE_OF[metric];
        return (
          <li
            key={metric}
            data-testid={`tile-${metric}`}
            className="rounded-lg border border-slate-200 bg-white px-3 py-3 shadow-sm"
          >
            <p className="text-xs font-medium text-slate-500">{METRIC_LABELS[metric]}</p>
            <p className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">
              {totals[metric].toLocaleString("en")}
            </p>
            {ofMetric ? (
              <p className="mt-0.5 text-xs text-slate-500">
                <span className="font-medium text-slate-700 tabular-nums">{formatRate(rate[ofMetric.key])}</span>{" "}
                {ofMetric.label}
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
