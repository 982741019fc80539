import "server-only";
import { and, desc, eq, gte, lt, notExists, notInArray, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { domainRequirementChecks as r, domains, workspaces } from "@/db/schema";
import type { RequirementCheck, RequirementLine } from "./requirement-lines.shared";
import { checkDomainRequirements } from "./check-requirements";

const DAY_MS = 86_400_000;
/** How often the maintenance job checks each domain, how many it checks a run, and how long checks are kept. */
export const RECHECK_AFTER_MS = DAY_MS;
export const CHECKS_PER_RUN = 20;
export const KEEP_CHECKS_DAYS = 90;

type Row = typeof r.$inferSelect;

const toCheck = (row: Row): RequirementCheck => ({
  id: row.id,
  checkedAt: row.checkedAt.toISOString(),
  status: row.status,
  lines: row.lines as RequirementLine[],
});

/** The domain's newest check, or null before the first. */
export async function latestRequirementCheck(workspaceId: string, domainId: string): Promise<RequirementCheck | null> {
  const [row] = await (
    await getDb()
  )
    .select()
    .from(r)
    .where(and(eq(r.workspaceId, workspaceId), eq(r.domainId, domainId)))
    .orderBy(desc(r.checkedAt), desc(r.id))
    .limit(1);
  return row ? toCheck(row) : null;
}

/** The domain's checks of the last `days`, newest first. */
export async function requirementHistory(
  workspaceId: string,
  domainId: string,
  options: { now: Date; days: number },
): Promise<RequirementCheck[]> {
  const since = new Date(options.now.getTime() - options.days * DAY_MS);
  const rows = await (
    await getDb()
  )
    .select()
    .from(r)
    .where(and(eq(r.workspaceId, workspaceId), eq(r.domainId, domainId), gte(r.checkedAt, since)))
    .orderBy(desc(r.checkedAt), desc(r.id));
  return rows.map(toCheck);
}

const CHECKS_AT_ONCE = 4;

/**
 * Hourly (lib/entry/worker/maintenance.ts): checks the domains not checked for a day, oldest first, a few a run so a
 * slow resolver never holds up the rest of the maintenance; drops checks older than 90 days unless their workspace is
 * on legal hold.
 */
export async function checkDueDomains(now: Date): Promise<number> {
  const db = await getDb();
  const recent = db
    .select({ one: sql`1` })
    .from(r)
    .where(and(eq(r.domainId, domains.id), gte(r.checkedAt, new Date(now.getTime() - RECHECK_AFTER_MS))));
  const due = await db.select().from(domains).where(notExists(recent)).orderBy(domains.createdAt).limit(CHECKS_PER_RUN);
  // A few at once: each waits mostly on DNS, so a slow resolver holds the run up a quarter as long.
  for (let i = 0; i < due.length; i += CHECKS_AT_ONCE)
    await Promise.all(due.slice(i, i + CHECKS_AT_ONCE).map((domain) => checkDomainRequirements(domain, now)));
  const held = db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.legalHold, true));
  await db
    .delete(r)
    .where(and(lt(r.checkedAt, new Date(now.getTime() - KEEP_CHECKS_DAYS * DAY_MS)), notInArray(r.workspaceId, held)));
  return due.length;
}
