import "server-only";
import { inActiveSpan, inSpan, recordSpanIn } from "@/lib/foundation/tracing";
import { getDb } from "@/db/client";
import { errorFields, log } from "@/lib/foundation/log";
import { metrics } from "@/lib/foundation/metrics/metrics";
import type { EventCode } from "@/lib/records/timeline/event-codes.shared";
import { checkAutoPause } from "@/lib/domain/workspaces/check-auto-pause";
import type { MessageRef, ProviderEvent, ProviderEventResult } from "./provider-event";
import { providerEventRecorder } from "./provider-event-recorder";
import type { RecordedReport } from "./record-provider-events";

export type { EventSource, MessageRef, ProviderEvent, ProviderEventResult } from "./provider-event";

const GUARDED_CODES = new Set<EventCode>([
  "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
  "EMAIL_MESSAGE_COMPLAINT_PROVIDER_EVENT",
]);

/**
 * The one ingestion path for provider reports (docs/delivery.md#provider-events); adapters verify and map, never
 * write. Resolves once its own report is committed, then runs the automatic pause check.
 *
 * Traced twice (docs/observability.md#provider-events-in-the-messages-trace): a `provider event` span in the trace
 * the report arrived in (its request's, or its inbound mail's; a job's report, the simulator's, has none), and one in
 * the trace the message was accepted in, linked to the first, so a bounce shows beside the message's delivery.
 */
export async function recordProviderEvent(ref: MessageRef, event: ProviderEvent): Promise<ProviderEventResult> {
  const attributes = { "postwerk.provider": event.source, "postwerk.provider_event.type": event.type };
  const startTime = Date.now();
  const traced = async (): Promise<ProviderEventResult> => {
    const result = await record(ref, event);
    if (result.outcome === "unknown-message") return result;
    recordSpanIn(result.traceParent, "provider event", {
      startTime,
      attributes: {
        ...attributes,
        "postwerk.message_id": result.messageId,
        "postwerk.provider_event.outcome": result.outcome,
      },
    });
    return { outcome: result.outcome, messageId: result.messageId };
  };
  return inActiveSpan() ? inSpan("provider event", { attributes }, traced) : traced();
}

async function record(ref: MessageRef, event: ProviderEvent): Promise<RecordedReport> {
  const result = await providerEventRecorder(await getDb()).submit({ ref, event });
  if (result.outcome === "unknown-message") return result;
  if (result.outcome === "recorded" && GUARDED_CODES.has(event.code)) await guardSending(result.workspaceId);
  metrics().providerEvents.inc({ provider: event.source, type: event.type, result: result.outcome });
  return result;
}

interface GuardState {
  running: Promise<void> | null;
  queued: Promise<void> | null;
}
const guards = new Map<string, GuardState>();

/**
 * Coalesced per workspace: reports recorded while a check runs share one check after it, and each caller waits
 * for a check begun after its commit. A failed check is only logged.
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
