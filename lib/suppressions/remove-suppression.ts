import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { suppressions } from "@/db/schema/suppressions";
import { notFound } from "@/lib/errors";
import { normalizeSuppressionEmail, type Suppression } from "./add-suppression";

/** Takes an address off the workspace's suppression list (the dashboard or the CLI): later sends go to it again. */
export async function removeSuppressionOrThrow(workspaceId: string, email: string): Promise<Suppression> {
  const address = normalizeSuppressionEmail(email);
  const [removed] = await (await getDb())
    .delete(suppressions)
    .where(and(eq(suppressions.workspaceId, workspaceId), eq(suppressions.email, address)))
    .returning();
  if (!removed) throw notFound(`${address} on the suppression list`, "email");
  return removed;
}
