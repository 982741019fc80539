import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys, users } from "@/db/schema";
import type { AuditEventRow } from "./list-audit-events";

/**
 * Who each entry's actor is, in words, for the dashboard's audit log (docs/audit.md#an-entry): a user by name and email
 * as they are now, an API key by its name, the system as "Postwerk". An entry written without a label (a use case
 * that knew only the user's id) would otherwise show a bare `usr_…`. Two lookups a page, whatever its length.
 */
export async function auditActorNames(
  workspaceId: string,
  rows: Pick<AuditEventRow, "actorType" | "actorId">[],
): Promise<Map<string, string>> {
  const idsOf = (type: AuditEventRow["actorType"]) => [
    ...new Set(rows.filter((row) => row.actorType === type && row.actorId).map((row) => row.actorId!)),
  ];
  const userIds = idsOf("USER");
  const keyIds = idsOf("API_KEY");
  const db = await getDb();
  const [people, keys] = await Promise.all([
    userIds.length
      ? db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, userIds))
      : [],
    keyIds.length
      ? db
          .select({ id: apiKeys.id, name: apiKeys.name })
          .from(apiKeys)
          .where(and(eq(apiKeys.workspaceId, workspaceId), inArray(apiKeys.id, keyIds)))
      : [],
  ]);
  const names = new Map<string, string>();
  for (const person of people) names.set(person.id, person.name ? `${person.name} (${person.email})` : person.email);
  for (const key of keys) names.set(key.id, key.name);
  return names;
}
