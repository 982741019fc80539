import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { VERSION } from "@/lib/foundation/version";

// Every Prometheus metric, on the foundation floor so any use case can count; lib/entry/observability sets the
// database gauges at scrape time. One set per process: the worker's counters are the ones /api/metrics renders.
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  // Always 1: the labels say which build answers, so a dashboard can tell versions apart across a rollout.
  new Gauge({
    name: "postwerk_build_info",
    help: "The running build: its version (package.json) and Node.js version; always 1.",
    labelNames: ["version", "node"] as const,
    registers,
  }).set({ version: VERSION, node: process.version }, 1);
  return {
    registry,
    httpRequests: new Counter({
      name: "postwerk_http_requests_total",
      help: "API requests (/v1) by route template, method and status.",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "postwerk_http_request_duration_seconds",
      help: "API request latency (/v1) by route template and method.",
      labelNames: ["route", "method"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    messagesAccepted: new Counter({
      name: "postwerk_messages_accepted_total",
      help: "Messages accepted (written with their delivery job) by source and sandbox.",
      labelNames: ["source", "sandbox"] as const,
      registers,
    }),
    smtpReplies: new Counter({
      name: "postwerk_smtp_replies_total",
      help: "SMTP submission: replies to authenticated clients at MAIL FROM (refusals) and DATA (outcomes), by step and code.",
      labelNames: ["step", "code"] as const,
      registers,
    }),
    acceptToSent: new Histogram({
      name: "postwerk_delivery_accept_to_sent_seconds",
      help: "Time from a message's acceptance to the recording of its provider's acceptance, by provider.",
      labelNames: ["provider"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
      registers,
    }),
    providerHandoffs: new Counter({
      name: "postwerk_provider_handoffs_total",
      help: "Messages handed to a provider, by provider and outcome (accepted, failed, retry, error).",
      labelNames: ["provider", "outcome"] as const,
      registers,
    }),
    connectionHandoffs: new Counter({
      name: "postwerk_connection_handoffs_total",
      help: "Hand-offs per provider connection (`default` is the instance's; others by id), by outcome (accepted, failed, retry, error).",
      labelNames: ["connection", "outcome"] as const,
      registers,
    }),
    connectionFailovers: new Counter({
      name: "postwerk_connection_failovers_total",
      help: "Messages moved from a connection to the next of their route after it certainly refused them, by the connection left.",
      labelNames: ["connection"] as const,
      registers,
    }),
    circuitTransitions: new Counter({
      name: "postwerk_connection_circuit_transitions_total",
      help: "Circuit breaker transitions per connection, by the state entered (open, closed).",
      labelNames: ["connection", "state"] as const,
      registers,
    }),
    providerEvents: new Counter({
      name: "postwerk_provider_events_total",
      help: "Provider events ingested (webhooks, the bounce listener), by provider, event type and result (recorded, duplicate, ignored; the listener also counts refused-550 and retry-451).",
      labelNames: ["provider", "type", "result"] as const,
      registers,
    }),
    queueJobs: new Gauge({
      name: "postwerk_queue_jobs",
      help: "Jobs not yet finished, by queue and state (created, retry, active); read at scrape time.",
      labelNames: ["queue", "state"] as const,
      registers,
    }),
    queueOldestAge: new Gauge({
      name: "postwerk_queue_oldest_ready_job_age_seconds",
      help: "Age of the oldest job that is due (start_after passed) and not yet started, by queue; 0 when none.",
      labelNames: ["queue"] as const,
      registers,
    }),
    pausedWorkspaces: new Gauge({
      name: "postwerk_workspaces_paused",
      help: "Workspaces whose sending is paused (by hand or automatically); read at scrape time.",
      registers,
    }),
    warnedWorkspaces: new Gauge({
      name: "postwerk_workspaces_deliverability_warning",
      help: "Workspaces whose complaint or bounce rate is past half its automatic pause threshold; read at scrape time.",
      registers,
    }),
    databaseConnections: new Gauge({
      name: "postwerk_database_connections",
      help: "PostgreSQL only: server connections to this database by state, all processes (pg_stat_activity).",
      labelNames: ["state"] as const,
      registers,
    }),
    workerFetchAge: new Gauge({
      name: "postwerk_worker_last_fetch_age_seconds",
      help: "Seconds since this process's oldest-polled worker of a queue last fetched; absent without workers.",
      labelNames: ["queue"] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The process's metrics, created on first use (never at import, so scripts that never count pay nothing). */
export function metrics(): Metrics {
  return processSingleton("metrics", createMetrics);
}
