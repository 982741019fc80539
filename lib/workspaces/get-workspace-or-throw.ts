import "server-only";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { workspaces } from "@/db/schema";
import { notFound } from "@/lib/errors";

export async function getWorkspaceOrThrow(db: Executor, workspaceId: string) {
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) throw notFound(`Workspace ${workspaceId}`);
  return workspace;
}
