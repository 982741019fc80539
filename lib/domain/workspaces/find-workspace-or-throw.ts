import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { isId } from "@/lib/foundation/ids";

/** Operator lookup (CLI): a workspace by id or by exact name; a name shared by several is ambiguous. */
export async function findWorkspaceOrThrow(idOrName: string) {
  const db = await getDb();
  if (isId("workspace", idOrName)) {
    const [byId] = await db.select().from(workspaces).where(eq(workspaces.id, idOrName));
    if (byId) return byId;
  }
  const byName = await db.select().from(workspaces).where(eq(workspaces.name, idOrName)).limit(2);
  if (byName.length === 1) return byName[0];
  if (byName.length > 1) {
    throw new AppError("CONFLICT", `Several workspaces are named "${idOrName}": pass the workspace id instead.`, {
      param: "workspace",
    });
  }
  throw new AppError("NOT_FOUND", `No workspace has the id or name "${idOrName}".`, { param: "workspace" });
}
