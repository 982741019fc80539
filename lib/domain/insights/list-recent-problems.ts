import "server-only";
import { and, desc, eq, gte, isNotNull } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { MESSAGE_FAMILY } from "@/lib/records/partitions/family";
import { keyMadeFrom } from "@/lib/records/partitions/prune";

export const RECENT_PROBLEMS_MAX = 10;
const m = emailMessages;

export interface RecentProblem {
  id: string;
  kind: "FAILED" | "BOUNCED";
  /** When it went wrong: erroredAt for a failure, firstBouncedAt for a bounce. */
  at: Date;
  sandbox: boolean;
  to: string[];
  subject: string;
}

const columns = {
  id: m.id,
  sandbox: m.sandbox,
  to: m.to,
  subject: m.subject,
  erroredAt: m.erroredAt,
  firstBouncedAt: m.firstBouncedAt,
};

/**
 * Failures walk the status index; bounces have none (a bounced message keeps its status), so they are read only when
 * `bounces` says the window holds some, within the window's created-index range.
 */
export async function listRecentProblems(
  workspaceId: string,
  options: { since: Date; bounces: boolean },
): Promise<RecentProblem[]> {
  const db = await getDb();
  const inWindow = and(
    eq(m.workspaceId, workspaceId),
    gte(m.createdAt, options.since),
    keyMadeFrom(MESSAGE_FAMILY, m.id, options.since), // the plan leaves out the days before the window
  );
  const [failed, bounced] = await Promise.all([
    db
      .select(columns)
      .from(m)
      .where(and(inWindow, eq(m.status, "FAILED")))
      .orderBy(desc(m.createdAt), desc(m.id))
      .limit(RECENT_PROBLEMS_MAX),
    options.bounces
      ? db
          .select(columns)
          .from(m)
          .where(and(inWindow, isNotNull(m.firstBouncedAt)))
          .orderBy(desc(m.createdAt), desc(m.id))
          .limit(RECENT_PROBLEMS_MAX)
      : Promise.resolve([]),
  ]);
  const problems: RecentProblem[] = [
    ...failed.map((row) => ({ ...pick(row), kind: "FAILED" as const, at: row.erroredAt ?? row.firstBouncedAt! })),
    ...bounced.map((row) => ({ ...pick(row), kind: "BOUNCED" as const, at: row.firstBouncedAt! })),
  ];
  return problems
    .filter((problem) => problem.at instanceof Date)
    .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1))
    .slice(0, RECENT_PROBLEMS_MAX);
}

function pick(row: { id: string; sandbox: boolean; to: string[]; subject: string }) {
  return { id: row.id, sandbox: row.sandbox, to: row.to, subject: row.subject };
}
