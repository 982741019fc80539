import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { invalidParameter, notFound } from "@/lib/errors";

export interface UpdateWorkspaceInput {
  workspaceId: string;
  name?: string;
  testMode?: boolean;
  trackingEnabled?: boolean;
}

/** Changes a workspace's settings (those given; the rest stay). Unknown workspace → NOT_FOUND. */
export async function updateWorkspace(input: UpdateWorkspaceInput) {
  const name = input.name?.trim();
  if (input.name !== undefined && !name) throw invalidParameter("name", "The workspace name must not be empty.");
  if (name && name.length > 200) throw invalidParameter("name", "The workspace name must be at most 200 characters.");
  const db = await getDb();
  const [workspace] = await db
    .update(workspaces)
    .set({
      ...(name ? { name } : {}),
      ...(input.testMode !== undefined ? { testMode: input.testMode } : {}),
      ...(input.trackingEnabled !== undefined ? { trackingEnabled: input.trackingEnabled } : {}),
      updatedAt: new Date(),
    })
    .where(eq(workspaces.id, input.workspaceId))
    .returning();
  if (!workspace) throw notFound(`Workspace ${input.workspaceId}`, "workspace");
  return workspace;
}
