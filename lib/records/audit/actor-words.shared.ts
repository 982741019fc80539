import type { AuditEventRow } from "./list-audit-events";

/** The actor's words: as they are now, else as recorded then (a deleted user or key), else the id; the system is Postwerk. */
export function auditActorWords(
  row: Pick<AuditEventRow, "actorType" | "actorId" | "actorLabel">,
  names: Map<string, string>,
): string {
  if (row.actorType === "SYSTEM") return row.actorLabel ?? "Postwerk";
  return (row.actorId ? names.get(row.actorId) : undefined) ?? row.actorLabel ?? row.actorId ?? "—";
}
