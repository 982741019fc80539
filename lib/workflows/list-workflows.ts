import "server-only";
import { asc, eq } from "drizzle-orm";
import { getDb, type Executor } from "@/db/client";
import { workflows } from "@/db/schema";
import type { WorkflowRow } from "./create-workflow";

/** A workspace's workflows, oldest first (the operator CLI; later the dashboard list). */
export async function listWorkflows(workspaceId: string, executor?: Executor): Promise<WorkflowRow[]> {
  const db = executor ?? (await getDb());
  return db.select().from(workflows).where(eq(workflows.workspaceId, workspaceId)).orderBy(asc(workflows.createdAt), asc(workflows.id));
}
