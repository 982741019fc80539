import "server-only";
import { getDb, type Executor } from "@/db/client";
import { workspaces } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";

export interface CreateWorkspaceInput {
  name: string;
  testMode?: boolean;
}

export async function createWorkspace(input: CreateWorkspaceInput, executor?: Executor) {
  const db = executor ?? (await getDb());
  const [workspace] = await db
    .insert(workspaces)
    .values({ id: newId("workspace"), name: input.name.trim(), testMode: input.testMode ?? true })
    .returning();
  return workspace;
}
