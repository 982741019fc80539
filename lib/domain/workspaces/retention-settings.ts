import "server-only";
import { invalidParameter } from "@/lib/foundation/errors";
import {
  effectiveRetention,
  retentionLimits,
  type RetentionWindows,
  type StoredRetention,
} from "@/lib/records/retention/windows";

export interface RetentionInput {
  bodyRetentionDays?: number | null;
  metadataRetentionDays?: number | null;
  legalHold?: boolean;
}

/** A workspace's retention as the settings page and GET /v1/workspace show it: stored, effective, the ceilings. */
export function retentionView(stored: StoredRetention): {
  effective: RetentionWindows;
  limits: ReturnType<typeof retentionLimits>;
} {
  return { effective: effectiveRetention(stored), limits: retentionLimits() };
}

/**
 * The retention columns a change sets, checked against the instance's ceilings and the rule that metadata is never
 * kept shorter than bodies (docs/retention.md#windows), each refusal naming its field. Null follows the default. A
 * hold starts its clock when it is put on and forgets it when lifted.
 */
export function retentionChanges(before: StoredRetention, input: RetentionInput, now: Date): Partial<StoredRetention> {
  const limits = retentionLimits();
  const changes: Partial<StoredRetention> = {};
  if (input.bodyRetentionDays !== undefined) {
    if (input.bodyRetentionDays !== null && input.bodyRetentionDays > limits.maxBodyDays)
      throw invalidParameter(
        "bodyRetentionDays",
        `bodyRetentionDays: at most ${limits.maxBodyDays} days on this instance (RETENTION_MAX_BODY_DAYS).`,
      );
    changes.bodyRetentionDays = input.bodyRetentionDays;
  }
  if (input.metadataRetentionDays !== undefined) {
    if (input.metadataRetentionDays !== null && input.metadataRetentionDays > limits.maxMetadataDays)
      throw invalidParameter(
        "metadataRetentionDays",
        `metadataRetentionDays: at most ${limits.maxMetadataDays} days on this instance (RETENTION_MAX_METADATA_DAYS).`,
      );
    changes.metadataRetentionDays = input.metadataRetentionDays;
  }
  checkMetadataNotShorter({ ...before, ...changes }, input);
  if (input.legalHold !== undefined && input.legalHold !== before.legalHold) {
    changes.legalHold = input.legalHold;
    changes.legalHoldAt = input.legalHold ? now : null;
  }
  return changes;
}

/** An explicit metadata window shorter than the body window it would sit beside is refused, naming what changed. */
function checkMetadataNotShorter(after: StoredRetention, input: RetentionInput): void {
  if (after.metadataRetentionDays === null) return; // the default is raised to the body window, never below it
  const bodyDays = effectiveRetention({ ...after, metadataRetentionDays: null }).bodyDays;
  if (after.metadataRetentionDays >= bodyDays) return;
  const field = input.metadataRetentionDays !== undefined ? "metadataRetentionDays" : "bodyRetentionDays";
  throw invalidParameter(
    field,
    `${field}: metadata must be kept at least as long as bodies (metadata ${after.metadataRetentionDays} days, bodies ${bodyDays} days).`,
  );
}
