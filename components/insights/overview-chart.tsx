"use client";

import { useState } from "react";
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { METRIC_COLORS, METRIC_LABELS, OVERVIEW_METRICS, type OverviewDay } from "@/lib/domain/insights/metrics.shared";

type Mode = "live" | "sandbox";

/**
 * The 14-day chart of the Overview: one line per metric, live or sandbox. The server computes the
 * data; this leaf only draws it. The same numbers are in a table below it for screen readers and
 * for anyone who wants them exact.
 */
export function OverviewChart({ days }: { days: OverviewDay[] }) {
  const [mode, setMode] = useState<Mode>("live");
  const data = days.map((day) => ({ date: day.date.slice(5), ...day[mode] }));
  const label = `Messages per day over the last ${days.length} days (UTC), ${mode}: ${OVERVIEW_METRICS.map(
    (metric) => `${METRIC_LABELS[metric]} ${days.reduce((sum, day) => sum + day[mode][metric], 0)}`,
  ).join(", ")}.`;
  return (
    <div className="space-y-3">
      <div role="group" aria-label="Messages to chart" className="inline-flex rounded-md bg-slate-100 p-0.5 text-sm">
        {(["live", "sandbox"] as const).map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={mode === option}
            onClick={() => setMode(option)}
            className={`rounded px-3 py-1 font-medium capitalize ${mode === option ? "bg-white text-slate-900 shadow-xs" : "text-slate-600 hover:text-slate-900"}`}
          >
            {option}
          </button>
        ))}
      </div>
      <figure role="img" aria-label={label} data-testid="overview-chart" className="h-72 w-full">
        <LineChart
          data={data}
          responsive
          style={{ width: "100%", height: "100%" }}
          margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
        >
          {/* Palette variables, so the grid and ticks follow dark mode (app/palette.css). */}
          <CartesianGrid strokeDasharray="3 3" stroke="var(--color-slate-200)" />
          <XAxis dataKey="date" tick={{ fontSize: 12, fill: "var(--color-slate-500)" }} tickLine={false} />
          <YAxis
            allowDecimals={false}
            tick={{ fontSize: 12, fill: "var(--color-slate-500)" }}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {OVERVIEW_METRICS.map((metric) => (
            <Line
              key={metric}
              type="monotone"
              dataKey={metric}
              name={METRIC_LABELS[metric]}
              stroke={METRIC_COLORS[metric]}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </figure>
      <details className="text-sm">
        <summary className="cursor-pointer text-slate-600 hover:text-slate-900">Show the numbers as a table</summary>
        <div className="mt-2 overflow-x-auto">
          <table aria-label={`Messages per day, ${mode}`} className="w-full text-right text-xs tabular-nums">
            <thead className="text-slate-500">
              <tr>
                <th scope="col" className="px-2 py-1 text-left font-medium">
                  Day (UTC)
                </th>
                {OVERVIEW_METRICS.map((metric) => (
                  <th key={metric} scope="col" className="px-2 py-1 font-medium">
                    {METRIC_LABELS[metric]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {days.map((day) => (
                <tr key={day.date}>
                  <th scope="row" className="px-2 py-1 text-left font-normal text-slate-700">
                    {day.date}
                  </th>
                  {OVERVIEW_METRICS.map((metric) => (
                    <td key={metric} className="px-2 py-1">
                      {day[mode][metric]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
