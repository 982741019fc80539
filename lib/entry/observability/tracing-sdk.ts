import "server-only";
import type { NodeSDK } from "@opentelemetry/sdk-node";
import { errorFields, log } from "@/lib/foundation/log";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { setTracingOn } from "@/lib/foundation/tracing";

const slot = processSingleton("tracing.sdk", () => ({}) as { sdk?: NodeSDK });

/** Whether this process should export traces: an OTLP endpoint is set and OTEL_SDK_DISABLED is not true. */
export function tracingConfigured(environment: Record<string, string | undefined> = process.env): boolean {
  const endpoint = environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || environment.OTEL_EXPORTER_OTLP_ENDPOINT;
  return Boolean(endpoint) && environment.OTEL_SDK_DISABLED?.trim().toLowerCase() !== "true";
}

/**
 * Starts OpenTelemetry's Node SDK, configured by the standard OTEL_* variables (exporter protocol, sampler, service
 * name, resource, batch sizes), when tracingConfigured(); otherwise does nothing and the SDK is never loaded
 * (docs/observability.md#traces). Only traces: Postwerk's metrics stay on /metrics and its logs on stdout.
 */
export async function startTracing(processName: string): Promise<void> {
  if (slot.sdk || !tracingConfigured()) return;
  // Defaults that differ from the SDK's: a service per process, and no OTLP metrics or logs (the SDK's default).
  process.env.OTEL_SERVICE_NAME ||= `postwerk-${processName}`;
  process.env.OTEL_METRICS_EXPORTER ||= "none";
  process.env.OTEL_LOGS_EXPORTER ||= "none";
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const sdk = new NodeSDK({});
  sdk.start();
  slot.sdk = sdk;
  setTracingOn(true);
  log.info("tracing on", {
    service: process.env.OTEL_SERVICE_NAME,
    sampler: process.env.OTEL_TRACES_SAMPLER ?? "parentbased_always_on",
    protocol:
      process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? process.env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf",
  });
}

/** Exports the spans still buffered, then stops: called as the process stops. Never throws. */
export async function stopTracing(): Promise<void> {
  const sdk = slot.sdk;
  if (!sdk) return;
  slot.sdk = undefined;
  setTracingOn(false);
  await sdk.shutdown().catch((error: unknown) => log.warn("traces not all exported at stop", errorFields(error)));
}
