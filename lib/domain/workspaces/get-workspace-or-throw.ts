import "server-only";
import { eq, sql } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { preparedFor } from "@/db/prepared";
import { workspaces } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";
import { ShortLivedCache } from "@/lib/foundation/short-lived-cache";

type WorkspaceRow = typeof workspaces.$inferSelect;
const rows = new ShortLivedCache<WorkspaceRow | null>();

/**
 * Outside a transaction from the short-lived cache, so nothing read here may need to be exact at commit (the pause
 * state is re-read in the accepting transaction); inside one read afresh.
 */
export async function getWorkspaceOrThrow(db: Executor, workspaceId: string) {
  const shared = await getDb();
  const workspace =
    db === shared
      ? await rows.get(shared, workspaceId, async () => {
          const query = preparedFor(shared, "get-workspace", () =>
            shared
              .select()
              .from(workspaces)
              .where(eq(workspaces.id, sql.placeholder("id")))
              .prepare("get_workspace"),
          );
          const [row] = await query.execute({ id: workspaceId });
          return row ?? null;
        })
      : (await db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0];
  if (!workspace) throw notFound(`Workspace ${workspaceId}`);
  return workspace;
}
