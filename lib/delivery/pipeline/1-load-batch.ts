import "server-only";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { emailMessages, workspaces } from "@/db/schema";
import { getQueue, type DeliverMessageJob } from "@/lib/records/queue/queue";
import { stillPending } from "@/lib/records/timeline/still-pending";
import type { DeliveryProvider } from "../provider";
import { getDeliveryProvider } from "../registry";
import { hasSimulatorRecipient } from "@/lib/foundation/addresses/simulator.shared";
import { simulatorProvider } from "../providers/simulator/simulator-provider";
import { defaultHop } from "../routing/hops";
import { routeOf, type Route } from "../routing/route";

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
  // What routing reads (routing/route.ts).
  tags: m.tags,
  templateId: m.templateId,
  connectionId: m.connectionId,
  // The start of postwerk_delivery_accept_to_sent_seconds.
  createdAt: m.createdAt,
  // Matched against the job's own time: a job made before a reschedule does nothing.
  scheduledAt: m.scheduledAt,
  // Its delivery's spans join the trace it was accepted in (../message-spans.ts).
  traceParent: m.traceParent,
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
  /** The connections it may go through, in order (docs/delivery.md#routing-and-failover). */
  route: Route;
  /** The first connection's provider: the one step 4 builds for, unless a later one needs MIME too. */
  provider: DeliveryProvider;
}

/** Step 1. A message named by two jobs of the batch (a retry and a resume) is delivered once for both. */
export async function loadBatch(db: Executor, items: DeliveryItem[]): Promise<Run[]> {
  const deliverable = await loadDeliverableMessages(
    db,
    items.map((item) => item.job),
  );
  const chosen = new Map<string, { found: Deliverable; context: DeliverContext }>();
  for (const { job, context } of items) {
    const found = deliverable.get(job.messageId);
    if (found && !chosen.has(job.messageId)) chosen.set(job.messageId, { found, context });
  }
  const runs = new Map<string, Run>();
  await Promise.all(
    [...chosen].map(async ([id, { found, context }]) => {
      const route = await routeFor(db, found.message, context.provider ?? getDeliveryProvider());
      runs.set(id, { ...found, context, route, provider: route.hops[0]?.provider ?? route.unrouted });
    }),
  );
  // The simulator enqueues in the claim's transaction: the queue must be started before it opens.
  if ([...runs.values()].some((run) => run.provider === simulatorProvider)) await getQueue();
  // In the jobs' order, as before routing: steps after this one keep it.
  return [...chosen.keys()].map((id) => runs.get(id)!);
}

/** A message to a simulator address goes to the simulator whatever the rules say (docs/delivery.md#the-outcome-simulator). */
async function routeFor(db: Executor, message: Message, configured: DeliveryProvider) {
  if (hasSimulatorRecipient(message.to, message.cc, message.bcc))
    return { rule: null, hops: [defaultHop(simulatorProvider)], pinned: false, unrouted: simulatorProvider };
  const route = await routeOf(db, message, configured);
  return { ...route, unrouted: noConnection(route) };
}

/** What a message whose route names no connection any more is answered: a failure saying so. */
function noConnection(route: Route): DeliveryProvider {
  const why = route.pinned
    ? "The connection it was handed to earlier was deleted, and another could send it twice."
    : "Its routing rule names no connection that still exists.";
  return {
    name: "local",
    description: "no connection",
    transactional: false,
    confirmsDelivery: false,
    needsMime: false,
    send: async () => ({ outcome: "failed", diagnostic: why }),
  };
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
