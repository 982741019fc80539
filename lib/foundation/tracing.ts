import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import { processSingleton } from "./process-singleton";
import { VERSION } from "./version";

/**
 * OpenTelemetry traces through the API package only (docs/observability.md#traces). Nothing here starts an SDK:
 * lib/entry/observability/tracing-sdk.ts does, when OTEL_EXPORTER_OTLP_ENDPOINT is set, and then turns `on`.
 * Off, every helper returns at its first line, so tracing costs a boolean check per call and no context switch.
 */
const state = processSingleton("tracing", () => ({ on: false }) as { on: boolean; tracer?: Tracer });

export { SpanKind };

/** True once this process exports traces. */
export function tracingOn(): boolean {
  return state.on;
}

/** Called by the SDK's starter (and its tests): from now on the helpers make spans. */
export function setTracingOn(on: boolean): void {
  state.on = on;
  state.tracer = undefined;
}

// Once per process: getTracer builds its cache key on every call (2 % of a send's CPU when called per span).
function tracer(): Tracer {
  return (state.tracer ??= trace.getTracer("postwerk", VERSION));
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** A W3C traceparent the span continues (a job's or a message's); null or absent: the active context. */
  parent?: string | null;
  /** Or the parent context itself (an incoming request's headers, extracted). */
  parentContext?: Context;
}

/** `work` inside a new active span, ended when it settles; a throw marks the span as an error and is rethrown. */
export async function inSpan<T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T> {
  if (!state.on) return work();
  const parent = parentOf(options);
  if (unsampled(parent)) return context.with(parent, work);
  return tracer().startActiveSpan(
    name,
    { kind: options.kind, attributes: options.attributes },
    parent,
    async (span) => {
      try {
        return await work();
      } catch (error) {
        failSpan(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** A span the caller ends (with endSpan): for work whose parts run in several places, like one message of a batch. */
export function startSpan(name: string, options: SpanOptions): Span | undefined {
  if (!state.on) return undefined;
  const parent = parentOf(options);
  // The parent itself, not recording: work run within it makes no spans either, and passes the decision on.
  if (unsampled(parent)) return trace.wrapSpanContext(trace.getSpanContext(parent)!);
  return tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
}

/**
 * Below a span that was not sampled nothing is made: a parent-based sampler (the default) would drop it anyway, and
 * with sampling at 0.01 this skips the SDK's work for 99 % of the spans (docs/observability.md#traces).
 */
function unsampled(parent: Context): boolean {
  const spanContext = trace.getSpanContext(parent);
  return spanContext !== undefined && (spanContext.traceFlags & TraceFlags.SAMPLED) === 0;
}

/**
 * A span, already finished, in the trace of a stored traceparent (a message's), linked to the active span: work about
 * the message done under another trace (a provider's report, in its request's trace) shows in the message's trace
 * too. Nothing when off, when the stored trace was not sampled, or when the active span is already in that trace.
 */
export function recordSpanIn(
  traceParent: string | null | undefined,
  name: string,
  options: { attributes?: Attributes; startTime: number },
): void {
  if (!state.on || !traceParent) return;
  const parent = parentOf({ parent: traceParent });
  const target = trace.getSpanContext(parent);
  if (!target || unsampled(parent)) return;
  const active = trace.getActiveSpan()?.spanContext();
  if (active?.traceId === target.traceId) return;
  const links = active ? [{ context: active }] : [];
  const span = tracer().startSpan(
    name,
    { kind: SpanKind.INTERNAL, attributes: options.attributes, startTime: options.startTime, links },
    parent,
  );
  span.end();
}

/** `work` with `span` as the active span, so the spans it starts are its children. */
export function withinSpan<T>(span: Span | undefined, work: () => T): T {
  if (!span) return work();
  return context.with(trace.setSpan(context.active(), span), work);
}

/** Ends a startSpan span: `error` (an Error or a sentence) marks it failed. */
export function endSpan(span: Span | undefined, error?: unknown, attributes?: Attributes): void {
  if (!span) return;
  if (attributes) span.setAttributes(attributes);
  if (error) failSpan(span, error);
  span.end();
}

function failSpan(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** True when a span is active here: work run now joins its trace. */
export function inActiveSpan(): boolean {
  return state.on && trace.getActiveSpan() !== undefined;
}

/** Sets attributes on the active span (the request's workspace, once its key is known). */
export function setSpanAttributes(attributes: Attributes): void {
  if (!state.on) return;
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** Marks the active span failed without ending it (a 5xx answer). */
export function markSpanFailed(message: string): void {
  if (!state.on) return;
  trace.getActiveSpan()?.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** A step inside the active span (an SMTP connection taken, the relay's answer), with when it happened. */
export function spanEvent(name: string, attributes?: Attributes): void {
  if (!state.on) return;
  trace.getActiveSpan()?.addEvent(name, attributes);
}

/**
 * The active context as a W3C traceparent, to store with work done later (a message's delivery, an inbound mail's
 * actions). Kept whether or not the trace is sampled, so the later spans follow the same decision.
 */
export function currentTraceParent(): string | null {
  if (!state.on) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** The context of an incoming request's `traceparent` (and `tracestate`, `baggage`) headers. */
export function contextOfHeaders(headers: Headers): Context | undefined {
  if (!state.on) return undefined;
  return propagation.extract(ROOT_CONTEXT, headers, {
    get: (carrier, key) => carrier.get(key) ?? undefined,
    keys: (carrier) => [...carrier.keys()],
  });
}

function parentOf(options: SpanOptions): Context {
  if (options.parentContext) return options.parentContext;
  if (options.parent) return propagation.extract(ROOT_CONTEXT, { traceparent: options.parent });
  return context.active();
}

/**
 * trace_id and span_id of the active span, for the log lines written inside it
 * (docs/observability.md#logs-that-join-the-traces).
 */
export function traceLogFields(): { trace_id: string; span_id: string } | undefined {
  if (!state.on) return undefined;
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
