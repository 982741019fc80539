import "server-only";
import { tracingOn } from "@/lib/foundation/tracing";
import path from "node:path";
import { now as clockNow } from "@/lib/foundation/clock";
import { env, type Env } from "@/lib/foundation/env";
import { inboundListenerAddress } from "@/lib/foundation/inbound-listener";
import { VERSION } from "@/lib/foundation/version";
import { QUEUES } from "@/lib/records/queue/queue";
import { countWaitingJobs, queueLag } from "@/lib/records/queue/queue-lag";
import { workerHeartbeatsSince } from "@/lib/records/queue/worker-heartbeats";

/** A setting shown on the Instance page: a value to show, or only whether a secret is set (never the secret). */
export type InstanceSetting =
  | { label: string; kind: "value"; value: string | number | boolean | null }
  | { label: string; kind: "secret"; set: boolean };

export interface InstanceListener {
  label: string;
  /** Null: off (not configured for this instance). */
  port: number | null;
}

export interface InstanceWorker {
  hostname: string;
  pid: string;
  startedAt: string;
  lastSeenAt: string;
}

export interface InstanceQueue {
  name: string;
  /** Jobs whose time has come, counted up to WAITING_COUNT_LIMIT (a backlog of millions is not walked). */
  waiting: number;
  waitingAtLeast: boolean;
  /** Seconds the job a worker would take next has been due; 0 when nothing waits. */
  oldestWaitingSeconds: number;
}

/** Plain JSON (no Date, no class): the page renders it and the test stringifies it to look for secrets. */
export interface InstanceDescription {
  version: string;
  checkedAt: string;
  database: { kind: "pglite"; dataDirectory: string } | { kind: "postgres"; host: string; database: string };
  delivery: { provider: Env["DELIVERY_PROVIDER"]; settings: InstanceSetting[] };
  listeners: InstanceListener[];
  workers: { runsHere: boolean; concurrency: number; seen: InstanceWorker[] };
  queues: InstanceQueue[];
  webhooks: { allowHttp: boolean; allowPrivate: boolean; allowLocal: boolean };
  metrics: { on: boolean; tokenSet: boolean };
  /** Whether this process exports traces, and its sampler (never the endpoint: its URL may hold a credential). */
  tracing: { on: boolean; sampler: string };
  retention: {
    messageBodiesDays: number;
    attachmentsDays: number;
    activityDays: number;
    auditDays: number;
    webhookLogDays: number;
  };
}

/** Workers stamp every 15 s (lib/entry/worker/heartbeat.ts): a minute tolerates three missed beats. */
const WORKERS_SEEN_WITHIN_MS = 60_000;
export const WAITING_COUNT_LIMIT = 10_000;

/**
 * What this instance runs with, for its owners: configuration read from env() with every secret reduced to "set or
 * not" here (the page never sees a secret), plus what the database says about workers and queues right now.
 */
export async function describeInstance(now: Date = clockNow()): Promise<InstanceDescription> {
  const config = env();
  const queueNames = Object.values(QUEUES);
  const [lag, counts, heartbeats] = await Promise.all([
    queueLag(queueNames, now),
    Promise.all(queueNames.map((name) => countWaitingJobs(name, WAITING_COUNT_LIMIT, now))),
    workerHeartbeatsSince(new Date(now.getTime() - WORKERS_SEEN_WITHIN_MS)),
  ]);
  return {
    version: VERSION,
    checkedAt: now.toISOString(),
    database: describeDatabase(config),
    delivery: { provider: config.DELIVERY_PROVIDER, settings: deliverySettings(config) },
    listeners: [
      { label: "Web and API (HTTP)", port: config.PORT },
      { label: "SMTP submission (STARTTLS)", port: config.SMTP_SUBMISSION_PORT ?? null },
      { label: "SMTP submission (implicit TLS)", port: config.SMTP_SUBMISSION_TLS_PORT ?? null },
      // Inbound mail and BOUNCE_DOMAIN's reports: SMTP_INBOUND_PORT, or 2525 on loopback in embedded mode.
      { label: "Inbound mail, bounces and complaints (SMTP)", port: inboundListenerAddress(config)?.port ?? null },
      { label: "Worker health", port: config.WORKER_HEALTH_PORT ?? null },
      { label: "Bounce listener health", port: config.INBOUND_HEALTH_PORT ?? null },
    ],
    workers: {
      runsHere: config.RUN_WORKER,
      concurrency: config.WORKER_CONCURRENCY,
      seen: heartbeats.map((row) => {
        // Ids are "<hostname>:<pid>" (lib/entry/worker/heartbeat.ts); a hostname may itself hold a colon.
        const cut = row.id.lastIndexOf(":");
        return {
          hostname: cut < 0 ? row.id : row.id.slice(0, cut),
          pid: cut < 0 ? "" : row.id.slice(cut + 1),
          startedAt: row.startedAt.toISOString(),
          lastSeenAt: row.seenAt.toISOString(),
        };
      }),
    },
    queues: queueNames.map((name, index) => ({
      name,
      waiting: counts[index],
      waitingAtLeast: counts[index] >= WAITING_COUNT_LIMIT,
      oldestWaitingSeconds: Math.round(lag.get(name) ?? 0),
    })),
    webhooks: {
      allowHttp: config.WEBHOOKS_ALLOW_HTTP || config.WEBHOOKS_ALLOW_LOCAL,
      allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE || config.WEBHOOKS_ALLOW_LOCAL,
      allowLocal: config.WEBHOOKS_ALLOW_LOCAL,
    },
    metrics: { on: Boolean(config.METRICS_TOKEN), tokenSet: Boolean(config.METRICS_TOKEN) },
    tracing: { on: tracingOn(), sampler: process.env.OTEL_TRACES_SAMPLER || "parentbased_always_on" },
    retention: {
      messageBodiesDays: config.RETENTION_DAYS,
      attachmentsDays: config.ATTACHMENT_RETENTION_DAYS,
      activityDays: config.ACTIVITY_RETENTION_DAYS,
      auditDays: config.AUDIT_RETENTION_DAYS,
      webhookLogDays: config.WEBHOOK_LOG_RETENTION_DAYS,
    },
  };
}

/** Host and database name only: a postgres:// URL carries the password, so it is never passed on whole. */
function describeDatabase(config: Env): InstanceDescription["database"] {
  if (!config.DATABASE_URL) return { kind: "pglite", dataDirectory: path.join(config.DATA_DIR, "pglite") };
  try {
    const url = new URL(config.DATABASE_URL);
    return {
      kind: "postgres",
      host: url.port ? `${url.hostname}:${url.port}` : url.hostname,
      database: decodeURIComponent(url.pathname.replace(/^\//, "")) || "(the user's default)",
    };
  } catch {
    return { kind: "postgres", host: "(unreadable URL)", database: "" };
  }
}

function deliverySettings(config: Env): InstanceSetting[] {
  const value = (label: string, shown: string | number | boolean | null | undefined): InstanceSetting => ({
    label,
    kind: "value",
    value: shown ?? null,
  });
  const secret = (label: string, set: unknown): InstanceSetting => ({ label, kind: "secret", set: Boolean(set) });
  switch (config.DELIVERY_PROVIDER) {
    case "local":
      return [];
    case "smtp": {
      const relay = smtpRelay(config.SMTP_URL);
      return [
        value("Relay", relay.server),
        value("User name", relay.user),
        secret("Password", relay.passwordSet),
        value("Connections", config.SMTP_POOL_SIZE),
        value("Checks the relay's certificate", config.SMTP_TLS_REJECT_UNAUTHORIZED),
        value("Timeout (ms)", config.SMTP_TIMEOUT_MS),
        value("Return-path domain", config.BOUNCE_DOMAIN),
      ];
    }
    case "resend":
      return [
        secret("API key", config.RESEND_API_KEY),
        value("API address", config.RESEND_BASE_URL ?? "https://api.resend.com"),
        secret("Webhook signing secret", config.RESEND_WEBHOOK_SECRET),
      ];
    case "ses":
      return [
        value("Region", config.AWS_REGION),
        // Without keys the AWS SDK's default chain (instance role, profile) is used.
        secret("Access key", config.AWS_ACCESS_KEY_ID && config.AWS_SECRET_ACCESS_KEY),
        secret("Session token", config.AWS_SESSION_TOKEN),
        value("Configuration set", config.SES_CONFIGURATION_SET),
        value("Endpoint", config.SES_ENDPOINT),
        value("SNS topics trusted", config.SES_SNS_TOPIC_ARNS?.join(", ")),
      ];
  }
}

/** The relay's scheme, host and port, and its user; the password (or a URL we cannot read) is never shown. */
function smtpRelay(smtpUrl: string | undefined): { server: string | null; user: string | null; passwordSet: boolean } {
  if (!smtpUrl) return { server: null, user: null, passwordSet: false };
  try {
    const url = new URL(smtpUrl);
    return {
      server: `${url.protocol}//${url.host}`,
      user: url.username ? decodeURIComponent(url.username) : null,
      passwordSet: url.password !== "",
    };
  } catch {
    return { server: "(unreadable URL)", user: null, passwordSet: true };
  }
}
