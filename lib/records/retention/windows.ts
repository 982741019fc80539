import "server-only";
import { asc, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { workspaces } from "@/db/schema";
import { env } from "@/lib/foundation/env";

const DAY_MS = 24 * 3600 * 1000;

/** What a workspace stored: null follows the instance's default (docs/retention.md#windows). */
export interface StoredRetention {
  bodyRetentionDays: number | null;
  metadataRetentionDays: number | null;
  legalHold: boolean;
  legalHoldAt: Date | null;
}

/** The windows the purges follow: the stored values or the defaults, within the ceilings, metadata never shorter. */
export interface RetentionWindows {
  bodyDays: number;
  metadataDays: number;
  legalHold: boolean;
  legalHoldAt: Date | null;
}

/** The instance's defaults and ceilings (RETENTION_DAYS, METADATA_RETENTION_DAYS, RETENTION_MAX_*_DAYS). */
export function retentionLimits() {
  const config = env();
  // A body window never passes the metadata ceiling: a row's bodies cannot outlive the row.
  const maxBodyDays = Math.min(config.RETENTION_MAX_BODY_DAYS, config.RETENTION_MAX_METADATA_DAYS);
  return {
    defaultBodyDays: Math.min(config.RETENTION_DAYS, maxBodyDays),
    defaultMetadataDays: Math.min(config.METADATA_RETENTION_DAYS, config.RETENTION_MAX_METADATA_DAYS),
    maxBodyDays,
    maxMetadataDays: config.RETENTION_MAX_METADATA_DAYS,
  };
}

export function effectiveRetention(stored: StoredRetention): RetentionWindows {
  const limits = retentionLimits();
  const bodyDays = Math.min(stored.bodyRetentionDays ?? limits.defaultBodyDays, limits.maxBodyDays);
  const metadataDays = Math.min(stored.metadataRetentionDays ?? limits.defaultMetadataDays, limits.maxMetadataDays);
  return {
    bodyDays,
    metadataDays: Math.max(metadataDays, bodyDays),
    legalHold: stored.legalHold,
    legalHoldAt: stored.legalHoldAt,
  };
}

/** Rows created before this lose their bodies (or, for metadata, go). */
export function cutoffOf(days: number, now: Date): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

const storedColumns = {
  workspaceId: workspaces.id,
  bodyRetentionDays: workspaces.bodyRetentionDays,
  metadataRetentionDays: workspaces.metadataRetentionDays,
  legalHold: workspaces.legalHold,
  legalHoldAt: workspaces.legalHoldAt,
};

/** Every workspace's windows, for the hourly purges; a workspace on legal hold is listed with `legalHold`. */
export async function listRetentionWindows(db: Executor): Promise<Array<RetentionWindows & { workspaceId: string }>> {
  const rows = await db.select(storedColumns).from(workspaces).orderBy(asc(workspaces.id));
  return rows.map((row) => ({ workspaceId: row.workspaceId, ...effectiveRetention(row) }));
}

export async function readRetentionWindows(db: Executor, workspaceId: string): Promise<RetentionWindows | null> {
  const [row] = await db.select(storedColumns).from(workspaces).where(eq(workspaces.id, workspaceId));
  return row ? effectiveRetention(row) : null;
}
