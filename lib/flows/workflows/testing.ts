import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { createWorkflow } from "./create-workflow";

export async function createWorkflowWorkspace(options: { testMode?: boolean } = {}) {
  const ws = await createTestWorkspace(options);
  const template = await ws.createTemplate({ subject: "Hi {{ user.name }}", bodyHtml: "<p>Hello {{ user.name }}</p>" });
  return {
    ...ws,
    template,
    createWorkflow: (definition: Record<string, unknown>) =>
      createWorkflow({ workspaceId: ws.workspace.id, definition: { name: "Onboarding", ...definition } }),
  };
}

/** The queued workflow-step jobs of a run, in step order, with how far in the future each starts. */
export async function stepJobsOf(runId: string): Promise<Array<{ step: number; state: string; delaySeconds: number }>> {
  const result = await (
    await getDb()
  ).execute(sql`
    select (data->>'step')::int as step, state::text as state,
           extract(epoch from (start_after - now()))::float8 as "delaySeconds"
    from pgboss.job where name = 'workflow-step' and data->>'runId' = ${runId}
    order by (data->>'step')::int`);
  return (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as Array<{
    step: number;
    state: string;
    delaySeconds: number;
  }>;
}
