import "server-only";
import { eq, sql } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import { workspaces } from "@/db/schema";
import { notFound } from "@/lib/errors";

export async function getWorkspaceOrThrow(db: Executor, workspaceId: string) {
  const [workspace] =
    db === (await getDb())
      ? await preparedFor(db, "get-workspace", () =>
          db.select().from(workspaces).where(eq(workspaces.id, sql.placeholder("id"))).prepare("get_workspace"),
        ).execute({ id: workspaceId })
      : await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) throw notFound(`Workspace ${workspaceId}`);
  return workspace;
}
