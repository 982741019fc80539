import type { ChildProcess } from "node:child_process";
import net from "node:net";
import postgres from "postgres";
import { expect } from "vitest";
import type { OtlpReceiver, ReceivedSpan } from "@/lib/testing/otlp-receiver";
import type { WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { waitFor } from "@/lib/testing/wait-for";

/**
 * The artefact test's harness (server/artefact.test.ts): a database of its own, waiting for and stopping its
 * processes, and the trace they export.
 */

/** A database of its own on the test's PostgreSQL server, dropped afterwards. */
export async function createDatabase(serverUrl: URL) {
  const name = `postwerk_artefact_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const adminUrl = new URL(serverUrl);
  adminUrl.pathname = "/postgres";
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export async function untilAnswers(name: string, url: string, child: ChildProcess, output: string[]) {
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output.join("")}`);
      return fetch(url).then(
        (response) => response.status === 200,
        () => false,
      );
    },
    { what: `${name} to answer ${url}`, timeout: 120_000, every: 100 },
  );
}

/** The first line an SMTP server sends. */
export function smtpBanner(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no SMTP greeting on port ${port} within 10 s`)));
    socket.once("data", (chunk) => {
      socket.end("QUIT\r\n");
      resolve(String(chunk).split("\r\n")[0]);
    });
    socket.once("error", reject);
  });
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * The message's trace, as the two processes exported it: the app's request span, the worker's delivery span as its
 * child, the provider hand-off under that, and the worker's webhook attempt for email.delivered under the request.
 */
export async function expectOneTrace(
  messageId: string,
  { otlp, hooks }: { otlp: OtlpReceiver; hooks: WebhookReceiver },
): Promise<void> {
  await waitFor(() => hooks.received.length > 0, { what: "the email.delivered webhook", timeout: 30_000 });
  const find = (name: string, service: string) =>
    otlp.spans.find((span) => span.name === name && span.service === service && relatedTo(span, messageId));
  const relatedTo = (span: ReceivedSpan, id: string) =>
    span.name !== "deliver" || span.attributes["postwerk.message_id"] === id;
  const deliver = await waitFor(() => find("deliver", "postwerk-worker"), {
    what: "the worker's deliver span",
    timeout: 30_000,
  });
  const request = await waitFor(
    () => otlp.spans.find((span) => span.service === "postwerk-server" && span.spanId === deliver.parentSpanId),
    { what: "the app's request span, the deliver span's parent", timeout: 30_000 },
  );
  expect(request).toMatchObject({ name: "POST /v1/email_messages", traceId: deliver.traceId, kind: 2 });
  const inTrace = () => otlp.spans.filter((span) => span.traceId === deliver.traceId);
  const handoff = await waitFor(() => inTrace().find((span) => span.name === "provider hand-off"), {
    what: "the provider hand-off span",
    timeout: 30_000,
  });
  expect(handoff).toMatchObject({ service: "postwerk-worker", parentSpanId: deliver.spanId });
  const attempt = await waitFor(() => inTrace().find((span) => span.name === "webhook attempt"), {
    what: "the webhook attempt span",
    timeout: 30_000,
  });
  expect(attempt).toMatchObject({ service: "postwerk-worker", parentSpanId: request.spanId });
  expect(attempt.attributes).toMatchObject({ "postwerk.webhook.event_type": "email.delivered" });
  expect(otlp.unreadable).toBe(0);
}
