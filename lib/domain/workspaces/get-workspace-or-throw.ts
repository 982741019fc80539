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
 * The workspace's row. Outside a transaction it comes from the request path's short-lived cache
 * (lib/foundation/short-lived-cache.ts: at most a second old, and invalidated by the use cases that change a
 * workspace), so read nothing from it that must be exact at commit time: sending's pause state is read
 * again inside the accepting transaction (lib/domain/workspaces/sending-state.ts). Inside a transaction it is
 * read afresh.
 */
export async function getWorkspaceOrThrow(db: Executor, workspaceId: string) {
  const shared = await getDb();
  const workspace =
    db === shared
      ? await rows.get(shared, workspaceId, async () => {
          const query = preparedFor(shared, "get-workspace", () =>
            shared.select().from(workspaces).where(eq(workspaces.id, sql.placeholder("id"))).prepare("get_workspace"),
          );
          const [row] = await query.execute({ id: workspaceId });
          return row ?? null;
        })
      : (await db.select().from(workspaces).where(eq(workspaces.id, workspaceId)))[0];
  if (!workspace) throw notFound(`Workspace ${workspaceId}`);
  return workspace;
}
