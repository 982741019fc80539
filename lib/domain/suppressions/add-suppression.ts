import "server-only";
import { sql } from "drizzle-orm";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { getDb, type Executor, type Tx } from "@/db/client";
import { SUPPRESSION_REASONS, suppressions } from "@/db/schema/suppressions";
import { invalidParameter } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { parseSingleAddress } from "@/lib/foundation/addresses/recipients.shared";

export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
export type Suppression = typeof suppressions.$inferSelect;

export interface AddSuppressionInput {
  workspaceId: string;
  email: string;
  reason: SuppressionReason;
  /** The message whose hard bounce or complaint put the address here. */
  emailMessageId?: string | null;
  detail?: string | null;
  actor?: AuditActor;
}

/** An idempotent upsert (docs/api.md#decided-unsubscribe-groups-suppression-contacts): a listed address takes the latest reason. */
export async function addSuppression(input: AddSuppressionInput): Promise<Suppression> {
  if (!SUPPRESSION_REASONS.includes(input.reason)) {
    throw invalidParameter("reason", `reason must be one of ${SUPPRESSION_REASONS.join(", ")}.`);
  }
  const email = normalizeSuppressionEmail(input.email);
  return (await getDb()).transaction((tx) => upsertSuppression(tx, input, email));
}

async function upsertSuppression(tx: Tx, input: AddSuppressionInput, email: string): Promise<Suppression> {
  const now = new Date();
  const values = {
    reason: input.reason,
    emailMessageId: input.emailMessageId ?? null,
    detail: input.detail ?? null,
    updatedAt: now,
  };
  const [row] = await tx
    .insert(suppressions)
    .values({ id: newId("suppression", now), workspaceId: input.workspaceId, email, ...values, createdAt: now })
    .onConflictDoUpdate({
      target: [suppressions.workspaceId, suppressions.email],
      set: input.actor ? byHand(values) : values,
    })
    .returning();
  if (input.actor) {
    const target = { type: "suppression", id: email };
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: input.actor,
      action: "suppression.add",
      target,
      after: { email, reason: row.reason, detail: row.detail },
    });
  }
  return row;
}

/** A complaint stays a complaint (as MANUAL it could be removed without `force`), and its message is kept. */
function byHand(values: {
  reason: SuppressionReason;
  emailMessageId: string | null;
  detail: string | null;
  updatedAt: Date;
}) {
  return {
    ...values,
    reason: sql`case when ${suppressions.reason} = 'COMPLAINT' then 'COMPLAINT' else ${values.reason} end`,
    emailMessageId: sql`coalesce(${values.emailMessageId}, ${suppressions.emailMessageId})`,
  };
}

/** One statement (the provider events' group commit); an address named twice keeps the last entry. */
export async function addSuppressions(db: Executor, inputs: AddSuppressionInput[]): Promise<void> {
  const now = new Date();
  const rows = new Map<string, typeof suppressions.$inferInsert>();
  for (const input of inputs) {
    if (!SUPPRESSION_REASONS.includes(input.reason))
      throw invalidParameter("reason", `reason must be one of ${SUPPRESSION_REASONS.join(", ")}.`);
    const email = normalizeSuppressionEmail(input.email);
    const values = {
      reason: input.reason,
      emailMessageId: input.emailMessageId ?? null,
      detail: input.detail ?? null,
      updatedAt: now,
    };
    rows.delete(`${input.workspaceId} ${email}`);
    rows.set(`${input.workspaceId} ${email}`, {
      id: newId("suppression", now),
      workspaceId: input.workspaceId,
      email,
      ...values,
      createdAt: now,
    });
  }
  if (rows.size === 0) return;
  const excluded = (column: { name: string }) => sql.raw(`excluded.${column.name}`);
  await db
    .insert(suppressions)
    // In key order: concurrent groups (two processes) then wait for each other rather than deadlock.
    .values([...rows.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row))
    .onConflictDoUpdate({
      target: [suppressions.workspaceId, suppressions.email],
      set: {
        reason: excluded(suppressions.reason),
        emailMessageId: excluded(suppressions.emailMessageId),
        detail: excluded(suppressions.detail),
        updatedAt: excluded(suppressions.updatedAt),
      },
    });
}

/** The stored form of a listed address: bare and lower-cased; anything but one address is refused. */
export function normalizeSuppressionEmail(email: string): string {
  return parseSingleAddress(email.trim(), "email", "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR").address.toLowerCase();
}
