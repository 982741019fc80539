import "server-only";
import type { InboundAction } from "@/db/schema";
import type { InboundMessageRow } from "@/lib/domain/inbound/serialize-inbound-message";
import { triggerWorkflowRun } from "@/lib/flows/workflows/trigger-workflow-run";
import type { ActionResult } from "./forward-inbound";

/** A route's workflow action: one run per inbound mail and action (metaId `inbound:<inm>:<n>`), the mail as variables. */
export async function triggerInboundWorkflow(
  inbound: InboundMessageRow,
  action: Extract<InboundAction, { type: "workflow" }>,
  index: number,
): Promise<ActionResult> {
  const { run } = await triggerWorkflowRun({
    workspaceId: inbound.workspaceId,
    sandbox: false,
    body: {
      workflowId: action.workflowId,
      metaId: `inbound:${inbound.id}:${index}`,
      variables: {
        from: inbound.fromAddress,
        to: inbound.recipient,
        subject: inbound.subject,
        strippedText: inbound.strippedText,
        text: inbound.textBody,
        mailboxHash: inbound.mailboxHash,
        inboundMessageId: inbound.id,
        originalMessageId: inbound.originalMessageId,
      },
    },
  });
  return { index, type: "workflow", status: run.status === "SKIPPED" ? "skipped" : "started", workflowRunId: run.id };
}
