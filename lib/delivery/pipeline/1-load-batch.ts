import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { emailMessages, workspaces } from "@/db/schema";
import { getQueue, type DeliverMessageJob } from "@/lib/records/queue/queue";
import { stillPending } from "@/lib/records/timeline/still-pending";
import type { DeliveryProvider } from "../provider";
import { getDeliveryProvider } from "../registry";
import { providerFor, simulatorProvider } from "../providers/simulator/simulator-provider";

export interface DeliverContext {
  /** 0 on the first try; the queue's retry count after. */
  attempt: number;
  /** The queue gives up after this attempt: a transient provider failure is then recorded as FAILED. */
  lastAttempt?: boolean;
  /** Overrides the configured provider (tests). */
  provider?: DeliveryProvider;
  /** Tests only: runs between loading and hand-over, where a cancel or reschedule races the worker. */
  afterLoad?: () => Promise<void>;
}

export interface DeliveryItem {
  job: DeliverMessageJob;
  context: DeliverContext;
}

const m = emailMessages;
// Not the whole row: the rest would be fetched and parsed again for every message of every batch.
const deliveryColumns = {
  id: m.id,
  workspaceId: m.workspaceId,
  sandbox: m.sandbox,
  groupId: m.groupId,
  from: m.from,
  replyTo: m.replyTo,
  to: m.to,
  toAddresses: m.toAddresses,
  cc: m.cc,
  bcc: m.bcc,
  subject: m.subject,
  bodyHtml: m.bodyHtml,
  bodyText: m.bodyText,
  headers: m.headers,
  attachments: m.attachments,
  // The start of postwerk_delivery_accept_to_sent_seconds.
  createdAt: m.createdAt,
  // Matched against the job's own time: a job made before a reschedule does nothing.
  scheduledAt: m.scheduledAt,
};

export type Message = { [K in keyof typeof deliveryColumns]: (typeof emailMessages.$inferSelect)[K] };

/** A live message waiting for delivery, with what its workspace says about it. */
export interface Deliverable {
  message: Message;
  paused: boolean;
  trackingEnabled: boolean;
}

export interface Run extends Deliverable {
  context: DeliverContext;
  provider: DeliveryProvider;
}

/** Step 1. A message named by two jobs of the batch (a retry and a resume) is delivered once for both. */
export async function loadBatch(db: Executor, items: DeliveryItem[]): Promise<Run[]> {
  const deliverable = await loadDeliverableMessages(
    db,
    items.map((item) => item.job),
  );
  const runs = new Map<string, Run>();
  for (const { job, context } of items) {
    const found = deliverable.get(job.messageId);
    if (!found || runs.has(job.messageId)) continue;
    runs.set(job.messageId, {
      ...found,
      context,
      provider: providerFor(found.message, context.provider ?? getDeliveryProvider()),
    });
  }
  // The simulator enqueues in the claim's transaction: the queue must be started before it opens.
  if ([...runs.values()].some((run) => run.provider === simulatorProvider)) await getQueue();
  return [...runs.values()];
}

/**
 * Live, PENDING, unsent, in the workspace their job names, and due at the job's own time: a job made before a
 * reschedule is ignored, the newer job delivers.
 */
async function loadDeliverableMessages(db: Executor, jobs: DeliverMessageJob[]): Promise<Map<string, Deliverable>> {
  const ids = [...new Set(jobs.map((job) => job.messageId))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ message: deliveryColumns, paused: workspaces.sendingPaused, trackingEnabled: workspaces.trackingEnabled })
    .from(m)
    .innerJoin(workspaces, eq(workspaces.id, m.workspaceId))
    .where(and(inArray(m.id, ids), eq(m.sandbox, false), stillPending, isNull(m.sentAt)));
  const byId = new Map(rows.map((row) => [row.message.id, row]));
  const found = new Map<string, Deliverable>();
  for (const job of jobs) {
    const row = byId.get(job.messageId);
    if (row && row.message.workspaceId === job.workspaceId && sameTime(job.scheduledAt, row.message.scheduledAt))
      found.set(job.messageId, row);
  }
  return found;
}

/** A job's time (ISO, absent for an immediate send) against the message's scheduledAt. */
function sameTime(jobTime: string | undefined, scheduledAt: Date | null): boolean {
  if (!jobTime || !scheduledAt) return !jobTime && !scheduledAt;
  return new Date(jobTime).getTime() === scheduledAt.getTime();
}
