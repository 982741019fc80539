import "server-only";
import { and, eq, gte, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { getDb, type Db } from "@/db/client";
import { emailMessages, overviewDayCounts } from "@/db/schema";
import { addCounts, emptyCounts, OVERVIEW_METRICS, type MetricCounts, type OverviewDay } from "./metrics.shared";

export const OVERVIEW_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;
const m = emailMessages;

const countWhere = (column: typeof m.sentAt) =>
  sql<number>`(count(*) filter (where ${column} is not null))::int`.mapWith(Number);

export interface Overview {
  since: Date;
  /** Oldest first, one entry per UTC day, today last; days without messages are zeros. */
  days: OverviewDay[];
  totals: { live: MetricCounts; sandbox: MetricCounts };
  /** Messages created in the window, live and sandbox together: zero means an empty state. */
  messages: number;
}

const c = overviewDayCounts;
const sumOf = (column: AnyPgColumn) => sql<number>`sum(${column})::int`.mapWith(Number);

/** From overview_day_counts, which triggers keep in the writing transaction: a few rows whatever the volume. */
export function overviewQuery(db: Db, workspaceId: string, since: Date) {
  return db
    .select({
      day: sql<string>`to_char(${c.day}, 'YYYY-MM-DD')`,
      sandbox: c.sandbox,
      accepted: sumOf(c.accepted),
      sent: sumOf(c.sent),
      delivered: sumOf(c.delivered),
      opened: sumOf(c.opened),
      clicked: sumOf(c.clicked),
      bounced: sumOf(c.bounced),
      complained: sumOf(c.complained),
      failed: sumOf(c.failed),
    })
    .from(c)
    .where(and(eq(c.workspaceId, workspaceId), gte(c.day, since.toISOString().slice(0, 10))))
    .groupBy(c.day, c.sandbox);
}

/** The same counts from email_messages: what the rollups must always equal (tests and the benchmark compare). */
export function overviewDirectQuery(db: Db, workspaceId: string, since: Date) {
  const utcDate = sql`(${m.createdAt} at time zone 'UTC')::date`;
  return db
    .select({
      day: sql<string>`to_char(${utcDate}, 'YYYY-MM-DD')`,
      sandbox: m.sandbox,
      accepted: sql<number>`count(*)::int`.mapWith(Number),
      sent: countWhere(m.sentAt),
      delivered: countWhere(m.deliveredAt),
      opened: countWhere(m.firstOpenedAt),
      clicked: countWhere(m.firstClickedAt),
      bounced: countWhere(m.firstBouncedAt),
      complained: countWhere(m.firstComplainedAt),
      failed: countWhere(m.erroredAt),
    })
    .from(m)
    .where(and(eq(m.workspaceId, workspaceId), gte(m.createdAt, since)))
    .groupBy(utcDate, m.sandbox);
}

/** Midnight UTC `days - 1` days before `now`'s day: the window is today and the 13 days before it. */
export function overviewSince(now: Date, days = OVERVIEW_DAYS): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/** Days are cohorts: a message counts on its creation day for everything since, so a day's rates stay coherent. */
export async function getOverview(workspaceId: string, now = new Date()): Promise<Overview> {
  const since = overviewSince(now);
  return overviewFromRows(since, await overviewQuery(await getDb(), workspaceId, since));
}

type OverviewRow = Awaited<ReturnType<typeof overviewQuery>>[number];

export function overviewFromRows(since: Date, rows: OverviewRow[]): Overview {
  const days: OverviewDay[] = Array.from({ length: OVERVIEW_DAYS }, (_, index) => ({
    date: new Date(since.getTime() + index * DAY_MS).toISOString().slice(0, 10),
    live: emptyCounts(),
    sandbox: emptyCounts(),
  }));
  const byDate = new Map(days.map((entry) => [entry.date, entry]));
  let messages = 0;
  for (const row of rows) {
    // A clock a little behind the database can put a row on "tomorrow": it is not in the window.
    const entry = byDate.get(row.day);
    if (!entry) continue;
    messages += row.accepted;
    const counts = row.sandbox ? entry.sandbox : entry.live;
    for (const metric of OVERVIEW_METRICS) counts[metric] += row[metric];
  }
  const totals = {
    live: days.reduce((sum, entry) => addCounts(sum, entry.live), emptyCounts()),
    sandbox: days.reduce((sum, entry) => addCounts(sum, entry.sandbox), emptyCounts()),
  };
  return { since, days, totals, messages };
}
