// Funnel order; `accepted` counts every message created (sandbox stops there), the others messages with that timestamp set.
export const OVERVIEW_METRICS = [
  "accepted",
  "sent",
  "delivered",
  "opened",
  "clicked",
  "bounced",
  "complained",
  "failed",
] as const;
export type OverviewMetric = (typeof OVERVIEW_METRICS)[number];

export type MetricCounts = Record<OverviewMetric, number>;

export const METRIC_LABELS: Record<OverviewMetric, string> = {
  accepted: "Accepted",
  sent: "Sent",
  delivered: "Delivered",
  opened: "Opened",
  clicked: "Clicked",
  bounced: "Bounced",
  complained: "Complained",
  failed: "Failed",
};

export const METRIC_COLORS: Record<OverviewMetric, string> = {
  accepted: "#94a3b8",
  sent: "#6366f1",
  delivered: "#10b981",
  opened: "#0ea5e9",
  clicked: "#8b5cf6",
  bounced: "#f59e0b",
  complained: "#ec4899",
  failed: "#ef4444",
};

export interface OverviewDay {
  /** UTC day, YYYY-MM-DD. */
  date: string;
  live: MetricCounts;
  sandbox: MetricCounts;
}

export function emptyCounts(): MetricCounts {
  return { accepted: 0, sent: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0, complained: 0, failed: 0 };
}

export function addCounts(a: MetricCounts, b: MetricCounts): MetricCounts {
  const sum = emptyCounts();
  for (const metric of OVERVIEW_METRICS) sum[metric] = a[metric] + b[metric];
  return sum;
}

export interface OverviewRates {
  /** delivered / sent */
  delivery: number | null;
  /** opened / delivered */
  open: number | null;
  /** clicked / delivered */
  click: number | null;
  /** bounced / sent */
  bounce: number | null;
}

/** Rates of a total; null where the denominator is zero (nothing to divide, not 0%). */
export function rates(counts: MetricCounts): OverviewRates {
  const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);
  return {
    delivery: ratio(counts.delivered, counts.sent),
    open: ratio(counts.opened, counts.delivered),
    click: ratio(counts.clicked, counts.delivered),
    bounce: ratio(counts.bounced, counts.sent),
  };
}

export function formatRate(rate: number | null): string {
  if (rate === null) return "—";
  return `${(rate * 100).toFixed(rate > 0 && rate < 0.1 ? 1 : 0)}%`;
}
