import http from "node:http";
import type { AddressInfo } from "node:net";

/** One span as an OTLP/HTTP JSON export carries it, with its process's service name. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  events: Array<{ name: string; attributes: Record<string, string | number | boolean> }>;
  /** The spans it links to (a report's span in its own request's trace). */
  links: Array<{ traceId: string; spanId: string }>;
  status: { code?: number; message?: string };
}

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter posts to `<url>/v1/traces`). */
  url: string;
  spans: ReceivedSpan[];
  /** Bodies that were not OTLP JSON (a protobuf export would land here). */
  unreadable: number;
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
type OtlpAttribute = { key: string; value: OtlpValue };

/**
 * A real HTTP server standing in for an OpenTelemetry collector: it takes OTLP/HTTP JSON exports
 * (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) on /v1/traces, answers 200 and keeps every span.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const receiver: OtlpReceiver = {
    url: "",
    spans: [],
    unreadable: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      try {
        if (request.url !== "/v1/traces") throw new Error(`unexpected path ${request.url}`);
        receiver.spans.push(...spansOf(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
      } catch {
        receiver.unreadable++;
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  server.keepAliveTimeout = 500;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

function spansOf(body: {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
  }>;
}): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpan) => {
    const service = String(attributesOf(resourceSpan.resource?.attributes)["service.name"] ?? "");
    return (resourceSpan.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        service,
        traceId: String(span.traceId),
        spanId: String(span.spanId),
        parentSpanId: String(span.parentSpanId ?? ""),
        name: String(span.name),
        kind: Number(span.kind),
        attributes: attributesOf(span.attributes as OtlpAttribute[] | undefined),
        events: ((span.events as Array<{ name: string; attributes?: OtlpAttribute[] }> | undefined) ?? []).map(
          (event) => ({ name: event.name, attributes: attributesOf(event.attributes) }),
        ),
        links: ((span.links as Array<{ traceId: string; spanId: string }> | undefined) ?? []).map((link) => ({
          traceId: String(link.traceId),
          spanId: String(link.spanId),
        })),
        status: (span.status as ReceivedSpan["status"]) ?? {},
      })),
    );
  });
}

function attributesOf(attributes: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of attributes ?? []) {
    if (value.stringValue !== undefined) out[key] = value.stringValue;
    else if (value.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue;
    else if (value.boolValue !== undefined) out[key] = value.boolValue;
  }
  return out;
}
