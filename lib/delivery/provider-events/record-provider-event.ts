import "server-only";
import { getDb } from "@/db/client";
import { errorFields, log } from "@/lib/foundation/log";
import { metrics } from "@/lib/foundation/metrics/metrics";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { checkAutoPause } from "@/lib/domain/workspaces/check-auto-pause";
import type { MessageRef, ProviderEvent, ProviderEventResult } from "./provider-event";
import { providerEventRecorder } from "./provider-event-recorder";

export type { EventSource, MessageRef, ProviderEvent, ProviderEventResult } from "./provider-event";

const GUARDED_CODES = new Set<EventCode>([
  "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
  "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT",
]);

/**
 * The one ingestion path for what providers report after the hand-off (docs/delivery.md#provider-events):
 * finds the message (in any workspace: provider events are service-wide), records the event through
 * the timeline at the provider's time (idempotent by providerEventId, order-tolerant by its effects),
 * lists a hard-bounced or complaining recipient on the workspace's suppression list in the same
 * transaction, then runs the automatic pause check. Reports arriving together are committed together
 * (provider-event-recorder.ts); each call still resolves only once its own report is committed.
 * Adapters verify and map; they never write.
 */
export async function recordProviderEvent(ref: MessageRef, event: ProviderEvent): Promise<ProviderEventResult> {
  const result = await providerEventRecorder(await getDb()).submit({ ref, event });
  if (result.outcome === "unknown-message") return result;
  if (result.outcome === "recorded" && GUARDED_CODES.has(event.code)) await guardSending(result.workspaceId);
  metrics().providerEvents.inc({ provider: event.source, type: event.type, result: result.outcome });
  return { outcome: result.outcome, messageId: result.messageId };
}

interface GuardState {
  running: Promise<void> | null;
  queued: Promise<void> | null;
}
const guards = new Map<string, GuardState>();

/**
 * The automatic pause check after a bounce or complaint, coalesced per workspace: while a check runs,
 * the reports recorded meanwhile share ONE check that starts after it (a burst of 100 bounces costs two
 * checks, not 100 scans of the last 1,000 messages), and each caller still waits for a check that began
 * after its report was committed, so none is missed. The event is recorded: a failed check is only logged.
 */
function guardSending(workspaceId: string): Promise<void> {
  let state = guards.get(workspaceId);
  if (!state) guards.set(workspaceId, (state = { running: null, queued: null }));
  const current = state;
  if (!current.running) {
    current.running = checkLogged(workspaceId).finally(() => {
      current.running = null;
      if (!current.queued) guards.delete(workspaceId);
    });
    return current.running;
  }
  current.queued ??= current.running.then(() => {
    current.queued = null;
    return guardSending(workspaceId);
  });
  return current.queued;
}

async function checkLogged(workspaceId: string): Promise<void> {
  try {
    await checkAutoPause({ workspaceId });
  } catch (error) {
    log.error("automatic pause check failed", { workspaceId, ...errorFields(error) });
  }
}
