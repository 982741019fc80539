import "server-only";
import type { Tx } from "@/db/client";
import { auditEvents } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import type { AuditActor } from "./actor";

export interface AuditEntry {
  workspaceId: string;
  actor: AuditActor;
  /** `<resource>.<verb>`: `api_key.create`, `domain.verify`, `workspace.pause`… (docs/audit.md#actions). */
  action: string;
  target: { type: string; id: string | null };
  /** The resource's fields before the change; for an update only the changed ones are kept. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

// A field holding a secret's value is never written into the log, whatever a caller passes (a hash or an
// encrypted copy is still a secret); a field about one (previousSecretExpiresAt) is kept.
const SECRET_WORDS = new Set(
  ["secret", "password", "passphrase", "hash", "token", "credential"].flatMap((word) => [word, `${word}s`]),
);
/** `<word> key` names a key's value: privateKey, secretAccessKey, apiKey, signingKey. */
const KEY_QUALIFIERS = new Set(["private", "secret", "access", "api", "signing"]);
/** Words after a secret's name that still name its value, or part of it: secretEncrypted, passwordHash, secretHint. */
const VALUE_FORMS = new Set(
  "encrypted sealed ciphertext hashed digest hint prefix value plain pem der base64 hex".split(" "),
);

/** Whether a field holds a secret's value: its name ends in a secret's name, maybe followed by the form it is kept in. */
export function isSecretField(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  for (let i = words.length - 1; i >= 0; i--) {
    const word = words[i];
    if (SECRET_WORDS.has(word)) return true;
    if (word === "key" && KEY_QUALIFIERS.has(words[i - 1])) return true;
    if (!VALUE_FORMS.has(word)) return false;
  }
  return false;
}

const MAX_TEXT = 512;

/** The one way into the audit log; a `Tx`, so the entry commits with the change and never beside it. */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  const { before, after } = changedFields(entry.before ?? null, entry.after ?? null);
  await tx.insert(auditEvents).values({
    id: newId("audit"),
    workspaceId: entry.workspaceId,
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    actorLabel: clip(entry.actor.label),
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    before,
    after,
    ip: clip(entry.actor.ip ?? null, 64),
    userAgent: clip(entry.actor.userAgent ?? null),
  });
}

/** Both sides without secrets; when both exist, only the fields whose values differ. */
export function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null) {
  const clean = (side: Record<string, unknown> | null) =>
    side
      ? Object.fromEntries(
          Object.entries(side)
            .filter(([key]) => !isSecretField(key))
            .map(([key, value]) => [key, plain(value)]),
        )
      : null;
  const b = clean(before);
  const a = clean(after);
  if (!b || !a) return { before: b, after: a };
  const changed = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
    (key) => JSON.stringify(b[key]) !== JSON.stringify(a[key]),
  );
  return { before: pick(b, changed), after: pick(a, changed) };
}

const pick = (side: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.filter((key) => key in side).map((key) => [key, side[key]]));

/** Dates as ISO strings, so before and after compare as the stored JSON will. */
const plain = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

function clip(value: string | null, max = MAX_TEXT): string | null {
  if (value === null) return null;
  return value.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, max);
}

/**
 * The audit entry of a create (before null), an update or a delete (after null), from each side's audited fields; an
 * update that changes none of them writes nothing.
 */
export async function recordAuditedChange<Row extends { id: string; workspaceId: string }>(
  tx: Tx,
  change: {
    actor: AuditActor;
    action: string;
    targetType: string;
    before: Row | null;
    after: Row | null;
    audited: (row: Row) => Record<string, unknown>;
  },
): Promise<void> {
  const row = (change.after ?? change.before)!;
  const was = change.before && change.audited(change.before);
  const is = change.after && change.audited(change.after);
  if (was && is && JSON.stringify(was) === JSON.stringify(is)) return;
  await recordAudit(tx, {
    workspaceId: row.workspaceId,
    actor: change.actor,
    action: change.action,
    target: { type: change.targetType, id: row.id },
    before: was,
    after: is,
  });
}
