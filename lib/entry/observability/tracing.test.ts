import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { apiRouter } from "@/app/api/routes";
import { createEndpoint } from "@/lib/flows/webhooks/manage-endpoints";
import { deliverDue, manualClock } from "@/lib/flows/webhooks/testing";
import { log, setLogLevel } from "@/lib/foundation/log";
import { inSpan, tracingOn } from "@/lib/foundation/tracing";
import { recordProviderEvent } from "@/lib/delivery/provider-events/record-provider-event";
import { simulatedEvent } from "@/lib/delivery/providers/simulator/simulated-events";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "@/lib/testing/otlp-receiver";
import { useSettings } from "@/lib/testing/settings";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { waitFor } from "@/lib/testing/wait-for";
import { startTracing, stopTracing, tracingConfigured } from "./tracing-sdk";

/**
 * Traces in one process, through the real SDK and a real OTLP/HTTP receiver (docs/observability.md): the request's
 * span, its render and accept, the delivery's span continuing the message's stored trace, the provider hand-off,
 * and the webhook attempt, all in one trace with correct parents; log lines inside a span name it. The two-process
 * trace (server and `npm run worker`) is server/tracing-processes.test.ts.
 */
let otlp: OtlpReceiver;
let hooks: WebhookReceiver;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  hooks = await startWebhookReceiver();
  useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true" });
});

afterAll(async () => {
  await stopTracing();
  useSettings({
    WEBHOOKS_ALLOW_PRIVATE: undefined,
    WEBHOOKS_ALLOW_HTTP: undefined,
    OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
  });
  await otlp.close();
  await hooks.close();
});

describe("tracing off", () => {
  it("is off without an OTLP endpoint or when OTEL_SDK_DISABLED is true, and the helpers then make nothing", async () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" })).toBe(
      false,
    );
    await startTracing("test"); // no endpoint in this process's environment yet: nothing starts
    expect(tracingOn()).toBe(false);
    expect(await inSpan("nothing", {}, async () => 42)).toBe(42);
    const { workspace, authorization } = await createTestWorkspace();
    const { traceParent } = await sendAndRead(authorization);
    expect(traceParent).toBeNull();
    expect(workspace.id).toBeTruthy();
  });
});

describe("tracing on", () => {
  it("one message's spans, from the POST to its webhook, form one trace with correct parents", async () => {
    useSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url });
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json";
    process.env.OTEL_BSP_SCHEDULE_DELAY = "100";
    await startTracing("test");
    expect(tracingOn()).toBe(true);

    const { workspace, authorization } = await createTestWorkspace();
    await createEndpoint(workspace.id, { url: hooks.url, eventTypes: ["email.sent"] }, "key_test");
    // A caller's own trace is continued: the request span's parent is the caller's span.
    const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpan = "00f067aa0ba902b7";
    const { id, traceParent } = await sendAndRead(authorization, `00-${callerTrace}-${callerSpan}-01`);
    expect(traceParent).toMatch(new RegExp(`^00-${callerTrace}-[0-9a-f]{16}-01$`));

    await deliverMessage({ workspaceId: workspace.id, messageId: id }, { attempt: 0 });
    await deliverDue(workspace.id, manualClock());
    expect(hooks.received).toHaveLength(1);

    const lines = captureLogLines(() => inSpan("logged", {}, async () => log.info("inside a span")));
    const spans = await waitForTrace(callerTrace, ["POST /v1/email_messages", "deliver", "webhook attempt"]);
    const byName = (name: string) => spans.find((span) => span.name === name)!;
    const request = byName("POST /v1/email_messages");
    expect(request.parentSpanId).toBe(callerSpan);
    expect(request.kind).toBe(2); // SERVER
    expect(request.service).toBe("postwerk-test");
    expect(request.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/v1/email_messages",
      "http.response.status_code": 201,
      "postwerk.workspace_id": workspace.id,
    });
    // Never a secret or an address in the request's span.
    expect(JSON.stringify(request.attributes)).not.toMatch(/@|Basic|password/);
    expect(byName("render").parentSpanId).toBe(request.spanId);
    expect(byName("accept").parentSpanId).toBe(request.spanId);
    const deliver = byName("deliver");
    expect(deliver.parentSpanId).toBe(request.spanId);
    expect(deliver.attributes["postwerk.message_id"]).toBe(id);
    expect(byName("build mail").parentSpanId).toBe(deliver.spanId);
    const handoff = byName("provider hand-off");
    expect(handoff.parentSpanId).toBe(deliver.spanId);
    expect(handoff.attributes).toMatchObject({ "postwerk.provider": "local", "postwerk.provider.outcome": "accepted" });
    const attempt = byName("webhook attempt");
    expect(attempt.parentSpanId).toBe(request.spanId);
    expect(attempt.attributes).toMatchObject({
      "postwerk.webhook.event_type": "email.sent",
      "http.response.status_code": 200,
    });

    const logged = (await lines).find((line) => line.message === "inside a span")!;
    const loggedSpan = await waitForSpan("logged");
    expect(logged).toMatchObject({ trace_id: loggedSpan.traceId, span_id: loggedSpan.spanId });
  });

  it("a caller's unsampled trace makes no span anywhere, and the message keeps the decision for its delivery", async () => {
    const { workspace, authorization } = await createTestWorkspace();
    const unsampledTrace = "5cf92f3577b34da6a3ce929d0e0e4737";
    const { id, traceParent } = await sendAndRead(authorization, `00-${unsampledTrace}-00f067aa0ba902b8-00`);
    expect(traceParent).toMatch(new RegExp(`^00-${unsampledTrace}-[0-9a-f]{16}-00$`));
    await deliverMessage({ workspaceId: workspace.id, messageId: id }, { attempt: 0 });
    // Spans are exported in the order they end: once a later one arrived, an earlier one would have too.
    await inSpan("marker after the unsampled send", {}, async () => {});
    await waitForSpan("marker after the unsampled send");
    expect(otlp.spans.filter((span) => span.traceId === unsampledTrace)).toEqual([]);
  });

  it("a provider's report joins the message's trace, linked to its own request's span; a job's report starts no trace", async () => {
    const { authorization } = await createTestWorkspace();
    const { id, traceParent } = await sendAndRead(authorization);
    const [, messageTrace, acceptingSpan] = traceParent!.split("-");
    const report = (step: "delivered" | "opened") =>
      simulatedEvent({ messageId: id, address: "ada@example.org", step, at: new Date(), link: null });
    // A provider's webhook request, in a trace of its own; then the simulator's job, with no span active.
    await inSpan("a provider's request", {}, () => recordProviderEvent({ messageId: id }, report("delivered")));
    expect(await recordProviderEvent({ messageId: id }, report("opened"))).toEqual({
      outcome: "recorded",
      messageId: id,
    });

    await waitFor(
      () => otlp.spans.filter((span) => span.traceId === messageTrace && span.name === "provider event").length === 2,
      { what: "both reports in the message's trace", timeout: 15_000 },
    );
    const providerRequest = await waitForSpan("a provider's request");
    const reports = otlp.spans.filter((span) => span.name === "provider event");
    const inRequest = reports.filter((span) => span.traceId === providerRequest.traceId);
    expect(inRequest).toHaveLength(1);
    expect(inRequest[0].parentSpanId).toBe(providerRequest.spanId);
    const inMessage = reports.filter((span) => span.traceId === messageTrace);
    const delivered = inMessage.find((span) => span.attributes["postwerk.provider_event.type"] === "delivered")!;
    const opened = inMessage.find((span) => span.attributes["postwerk.provider_event.type"] === "opened")!;
    for (const span of [delivered, opened]) {
      expect(span.parentSpanId).toBe(acceptingSpan);
      expect(span.attributes).toMatchObject({
        "postwerk.provider": "simulator",
        "postwerk.message_id": id,
        "postwerk.provider_event.outcome": "recorded",
      });
    }
    expect(delivered.links).toEqual([{ traceId: providerRequest.traceId, spanId: inRequest[0].spanId }]);
    expect(opened.links).toEqual([]);
    // Every report span is in one of those two traces: the job's report made no root of its own.
    expect(reports.filter((span) => span.traceId !== messageTrace && span.traceId !== providerRequest.traceId)).toEqual(
      [],
    );
  });

  it("a failure inside a span marks it as an error and is rethrown", async () => {
    await expect(
      inSpan("failing", {}, async () => {
        throw new Error("it broke");
      }),
    ).rejects.toThrow("it broke");
    const span = await waitForSpan("failing");
    expect(span.status).toMatchObject({ code: 2, message: "it broke" });
  });
});

/** A send through the router (with a caller's traceparent, if given): its id and the trace context it stored. */
async function sendAndRead(authorization: string, traceparent?: string) {
  const answer = await apiRouter(sendRequest(authorization, traceparent));
  expect(answer.status).toBe(201);
  const { id } = ((await answer.json()) as { data: { id: string } }).data;
  const [row] = await (
    await getDb()
  )
    .select({ traceParent: emailMessages.traceParent })
    .from(emailMessages)
    .where(eq(emailMessages.id, id));
  return { id, traceParent: row.traceParent };
}

function sendRequest(authorization: string, traceparent?: string): Request {
  return new Request("http://localhost:3000/v1/email_messages", {
    method: "POST",
    headers: { authorization, "content-type": "application/json", ...(traceparent ? { traceparent } : {}) },
    body: JSON.stringify({
      from: "hello@example.com",
      to: "ada@example.org",
      subject: "Traced",
      bodyHtml: "<p>Hi</p>",
    }),
  });
}

async function captureLogLines(work: () => Promise<void>): Promise<Array<Record<string, unknown>>> {
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  setLogLevel("info");
  try {
    await work();
  } finally {
    setLogLevel("silent");
    spy.mockRestore();
  }
  return written.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function waitForTrace(traceId: string, names: string[]): Promise<ReceivedSpan[]> {
  await waitFor(
    () => names.every((name) => otlp.spans.some((span) => span.traceId === traceId && span.name === name)),
    { what: `the spans ${names.join(", ")} to be exported`, timeout: 15_000 },
  );
  return otlp.spans.filter((span) => span.traceId === traceId);
}

async function waitForSpan(name: string): Promise<ReceivedSpan> {
  await waitFor(() => otlp.spans.some((span) => span.name === name), { what: `the span ${name}`, timeout: 15_000 });
  return otlp.spans.find((span) => span.name === name)!;
}
