import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { domains, workspaces } from "@/db/schema";

/** The part of a display name that needs the quoted form (RFC 5322 specials). */
const NEEDS_QUOTES = /[()<>[\]:;@\\,."]/;

/**
 * The From a new template starts with, so its first "Send to me" works; null without a verified domain. The first
 * domain verified wins: later ones are often for a single product.
 */
export async function defaultSenderFor(workspaceId: string): Promise<string | null> {
  return defaultSenderForIn(await getDb(), workspaceId);
}

/** The same on the caller's database or transaction. */
export async function defaultSenderForIn(db: Executor, workspaceId: string): Promise<string | null> {
  const [row] = await db
    .select({ domain: domains.name, workspace: workspaces.name })
    .from(domains)
    .innerJoin(workspaces, eq(workspaces.id, domains.workspaceId))
    .where(and(eq(domains.workspaceId, workspaceId), eq(domains.status, "VERIFIED")))
    .orderBy(asc(domains.verifiedAt), asc(domains.name))
    .limit(1);
  if (!row) return null;
  return `${displayName(row.workspace)}<hello@${row.domain}>`;
}

/** The workspace name as a display name; left out when it would read as Liquid (the From is a Liquid field). */
function displayName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || /[{}%]/.test(trimmed)) return "";
  if (!NEEDS_QUOTES.test(trimmed)) return `${trimmed} `;
  return `"${trimmed.replace(/["\\]/g, (char) => `\\${char}`)}" `;
}
