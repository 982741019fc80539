import { z } from "zod";

/**
 * The payload of every job, one schema each. Jobs outlive deployments (a delayed workflow step may
 * wait 90 days): the worker parses each payload before it runs the job, so a job written by another
 * version fails with a clear message instead of running with missing fields.
 */
export const deliverMessageJobSchema = z.object({
  workspaceId: z.string().min(1),
  messageId: z.string().min(1),
  /**
   * The message's scheduledAt when the job was made (ISO). A reschedule makes a new job: delivery
   * ignores a job whose time is no longer the message's (docs/delivery.md#scheduled-sends).
   */
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
  /** 0: each recipient's first report (delivered, bounced, delayed…); 1: the one after (delivered, opened…). */
  round: z.number().int().min(0).max(1),
});
export type SimulateOutcomeJob = z.infer<typeof simulateOutcomeJobSchema>;

/** A job's payload checked against its schema; the error names the queue and the field. */
export function parseJob<T>(queue: string, schema: z.ZodType<T>, data: unknown): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(
    `A ${queue} job has an unreadable payload (${issue.path.join(".") || "data"}: ${issue.message}); it was written by another version?`,
  );
}
