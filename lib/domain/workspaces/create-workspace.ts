import "server-only";
import { getDb, type Executor } from "@/db/client";
import { workspaces } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";

export interface CreateWorkspaceInput {
  name: string;
  testMode?: boolean;
}

export async function createWorkspace(input: CreateWorkspaceInput) {
  return createWorkspaceIn(await getDb(), input);
}

/** The same on the caller's database or transaction. */
export async function createWorkspaceIn(db: Executor, input: CreateWorkspaceInput) {
  const [workspace] = await db
    .insert(workspaces)
    .values({ id: newId("workspace"), name: input.name.trim(), testMode: input.testMode ?? true })
    .returning();
  return workspace;
}
