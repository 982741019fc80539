import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { inboundMessages, inboundRoutes } from "@/db/schema";
import { LOOP_HEADER } from "@/lib/flows/inbound/parse/types";
import { AppError } from "@/lib/foundation/errors";
import { errorFields, log } from "@/lib/foundation/log";
import type { InboundActionsJob } from "@/lib/records/queue/jobs";
import { forwardInbound, type ActionResult } from "./forward-inbound";
import { ingestDmarcReports } from "@/lib/flows/inbound/dmarc/ingest-dmarc-reports";
import { triggerInboundWorkflow } from "./trigger-inbound-workflow";

/**
 * The job `inbound-actions`: a stored mail's forward, workflow and dmarc actions, in the route's order. Each is idempotent by
 * its key, so a retry after a crash redoes none; one failing action is recorded and the others still run.
 */
export async function runInboundActions(job: InboundActionsJob): Promise<ActionResult[]> {
  const db = await getDb();
  const [inbound] = await db
    .select()
    .from(inboundMessages)
    .where(and(eq(inboundMessages.id, job.inboundMessageId), eq(inboundMessages.workspaceId, job.workspaceId)));
  if (!inbound || inbound.status !== "RECEIVED" || !inbound.routeId) return [];
  const [route] = await db
    .select({ actions: inboundRoutes.actions })
    .from(inboundRoutes)
    .where(and(eq(inboundRoutes.id, inbound.routeId), eq(inboundRoutes.workspaceId, job.workspaceId)));
  const hops = inbound.headers.filter(([name]) => name.toLowerCase() === LOOP_HEADER.toLowerCase()).length;
  const results: ActionResult[] = [];
  for (const [index, action] of (route?.actions ?? []).entries()) {
    if (action.type !== "forward" && action.type !== "workflow" && action.type !== "dmarc") continue;
    try {
      results.push(
        action.type === "forward"
          ? await forwardInbound(inbound, action, index, hops)
          : action.type === "workflow"
            ? await triggerInboundWorkflow(inbound, action, index)
            : await ingestDmarcReports(inbound, index),
      );
    } catch (error) {
      // A refusal (no such workflow, a sender no longer allowed) is the action's result; anything else retries the job.
      if (!(error instanceof AppError)) throw error;
      log.warn("inbound action failed", { inboundMessageId: inbound.id, index, ...errorFields(error) });
      results.push({ index, type: action.type, status: "failed", reason: error.message });
    }
  }
  await db
    .update(inboundMessages)
    .set({ actionResults: results, updatedAt: new Date() })
    .where(and(eq(inboundMessages.id, inbound.id), eq(inboundMessages.workspaceId, job.workspaceId)));
  return results;
}
