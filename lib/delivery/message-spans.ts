import "server-only";
import type { Span } from "@opentelemetry/api";
import { endSpan, SpanKind, startSpan, tracingOn, withinSpan } from "@/lib/foundation/tracing";
import type { Run } from "./pipeline/1-load-batch";

/**
 * One `deliver` span per message of a delivery batch, each the child of the trace its message was accepted in (the
 * message's trace_parent), so a batch of 100 messages from 100 requests joins 100 traces
 * (docs/observability.md#one-message-one-trace). The steps run `within` their message's span. Off: no spans.
 */
export class MessageSpans {
  private readonly spans = new Map<string, Span>();

  constructor(runs: Run[]) {
    if (!tracingOn()) return;
    for (const run of runs) {
      const span = startSpan("deliver", {
        kind: SpanKind.CONSUMER,
        parent: run.message.traceParent,
        attributes: {
          "messaging.system": "pg-boss",
          "messaging.destination.name": "deliver-message",
          "postwerk.message_id": run.message.id,
          "postwerk.workspace_id": run.message.workspaceId,
          "postwerk.attempt": run.context.attempt,
        },
      });
      if (span) this.spans.set(run.message.id, span);
    }
  }

  within<T>(messageId: string, work: () => T): T {
    return withinSpan(this.spans.get(messageId), work);
  }

  /** Ends each span with its message's outcome: an Error means the queue retries it. */
  end(outcomes: Map<string, Error | null>): void {
    for (const [id, span] of this.spans) {
      const error = outcomes.get(id);
      endSpan(span, error ?? undefined, { "postwerk.retried": Boolean(error) });
    }
    this.spans.clear();
  }
}
