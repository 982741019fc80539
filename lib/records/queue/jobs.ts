import { z } from "zod";

// Jobs outlive deployments: each payload is parsed first, so another version's job fails with a clear message.
export const deliverMessageJobSchema = z.object({
  workspaceId: z.string().min(1),
  messageId: z.string().min(1),
  /** A reschedule makes a new job: delivery ignores one whose time is no longer the message's. */
  scheduledAt: z.string().optional(),
});
export type DeliverMessageJob = z.infer<typeof deliverMessageJobSchema>;

export const workflowStepJobSchema = z.object({
  workspaceId: z.string().min(1),
  runId: z.string().min(1),
  /** Index of the step this job runs; the run's next_step must still be this for it to do anything. */
  step: z.number().int().min(0),
});
export type WorkflowStepJob = z.infer<typeof workflowStepJobSchema>;

export const deliverWebhookJobSchema = z.object({
  workspaceId: z.string().min(1),
  endpointId: z.string().min(1),
  deliveryId: z.string().min(1),
});
export type DeliverWebhookJob = z.infer<typeof deliverWebhookJobSchema>;
export const simulateOutcomeJobSchema = z.object({
  workspaceId: z.string().min(1),
  messageId: z.string().min(1),
  /** The envelope's recipients (suppressed ones were not sent to, so they report nothing). */
  recipients: z.array(z.string().min(1)).min(1),
  round: z.number().int().min(0).max(1),
});
export type SimulateOutcomeJob = z.infer<typeof simulateOutcomeJobSchema>;

export const inboundActionsJobSchema = z.object({
  workspaceId: z.string().min(1),
  /** The stored inbound mail whose route's forward and workflow actions this job runs. */
  inboundMessageId: z.string().min(1),
  /** The W3C traceparent of the mail's receiving, when tracing was on: the job's span joins that trace. */
  traceParent: z.string().max(512).optional(),
});
export type InboundActionsJob = z.infer<typeof inboundActionsJobSchema>;

export function parseJob<T>(queue: string, schema: z.ZodType<T>, data: unknown): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(
    `A ${queue} job has an unreadable payload (${issue.path.join(".") || "data"}: ${issue.message}); it was written by another version?`,
  );
}
