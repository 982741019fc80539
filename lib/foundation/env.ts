import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * Every setting of the service, validated in one place. Defaults make the embedded mode
 * (PGlite under DATA_DIR, local inbox provider) work with no configuration at all.
 * Documented one by one in .env.example and docs/configuration.md.
 */
const booleanString = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

/** A positive whole number that fits Node's timers (a signed 32-bit millisecond count). */
function httpSetting(fallback: number) {
  return z.coerce.number().int().min(1).max(2_147_483_647).default(fallback);
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default("./.data"),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL").optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  DELIVERY_PROVIDER: z.enum(["local", "smtp", "resend", "ses"]).default("local"),
  SMTP_URL: z.string().optional(),
  // SMTP provider (lib/delivery/providers/smtp/smtp-provider.ts): pooled connections, certificate checks, timeouts.
  SMTP_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(5),
  SMTP_TLS_REJECT_UNAUTHORIZED: booleanString.default(true),
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  // Per-message return path b-<token>@BOUNCE_DOMAIN (VERP) for the smtp provider; its MX points at the inbound listener.
  BOUNCE_DOMAIN: z
    .string()
    .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i, "must be a domain name, e.g. bounces.example.com")
    .transform((value) => value.toLowerCase())
    .optional(),
  // Inbound SMTP listener for bounces and complaints (lib/entry/inbound); unset, no listener.
  SMTP_INBOUND_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SMTP_INBOUND_HOST: z.string().min(1).default("0.0.0.0"),
  SMTP_INBOUND_MAX_BYTES: z.coerce.number().int().min(10_000).max(100 * 1024 * 1024).default(10 * 1024 * 1024),
  SMTP_INBOUND_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(10_000).default(100),
  SMTP_INBOUND_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  // `npm run inbound` only: /health/live, /health/ready and /metrics on this port; unset, no listener.
  INBOUND_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // Messages a process may have handed to a provider without their outcome committed (lib/delivery/unrecorded-gate.ts): the SIGKILL duplicate bound. Unset: 4 × SMTP_POOL_SIZE.
  DELIVERY_MAX_UNRECORDED: z.coerce.number().int().min(1).max(10_000).optional(),
  RESEND_API_KEY: z.string().optional(),
  RESEND_BASE_URL: z.url().optional(),
  // Signing secret (whsec_…) of the Resend webhook pointed at /api/provider-events/resend.
  RESEND_WEBHOOK_SECRET: z.string().startsWith("whsec_", "must be the whsec_… signing secret Resend shows for the webhook").optional(),
  // Amazon SES (lib/delivery/providers/ses): region and credentials are the AWS SDK's standard variables
  // (or its other sources: shared config files, an instance or task role), validated here when given.
  AWS_REGION: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, "must be an AWS region such as eu-west-1").optional(),
  AWS_ACCESS_KEY_ID: z.string().min(16).max(128).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(16).max(256).optional(),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
  SES_CONFIGURATION_SET: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be a configuration set name (letters, digits, _ and -)").optional(),
  SES_ENDPOINT: z.url().optional(),
  // The SNS topics whose notifications /api/provider-events/ses accepts and whose subscriptions it confirms.
  SES_SNS_TOPIC_ARNS: z
    .string()
    .regex(/^\s*arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\s*,\s*arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256})*\s*$/, "must be SNS topic ARNs separated by commas")
    .transform((value) => value.split(",").map((arn) => arn.trim()))
    .optional(),
  // Test settings, refused unless NODE_ENV=test or POSTWERK_ALLOW_INSECURE_TEST_SETTINGS=true (docs/delivery.md#ses-1).
  POSTWERK_ALLOW_INSECURE_TEST_SETTINGS: booleanString.default(false),
  SNS_TEST_TRUSTED_ORIGIN: z.url().optional(),
  RUN_WORKER: booleanString.default(true),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(5),
  SEED_DEMO: booleanString.default(true),
  SEED_API_KEY: z
    .string()
    .regex(/^key_[0-9A-Za-z]{16}:[0-9A-Za-z_-]{32,}$/, "must be key_<16 base62>:<secret of 32+ characters>")
    .optional(),
  // Bearer token of GET /api/metrics (Prometheus); unset, the endpoint answers 404.
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").max(512).optional(),
  // `npm run worker` only: serve /health/live, /health/ready and /metrics on this port; unset, no listener.
  WORKER_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // HTTP server (server/http-server.mjs, which reads them itself since it runs before the build):
  // timeouts against slow clients and keep-alive limits. Validated here too so the list is complete.
  HTTP_HEADERS_TIMEOUT_MS: httpSetting(10_000),
  HTTP_IDLE_TIMEOUT_MS: httpSetting(10_000),
  HTTP_REQUEST_TIMEOUT_MS: httpSetting(60_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: httpSetting(5_000),
  HTTP_MAX_REQUESTS_PER_SOCKET: httpSetting(1_000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // Per API key, per process (lib/entry/api/rate-limit.ts). 0 turns rate limiting off.
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(0).max(1_000_000).default(100),
  RATE_LIMIT_BURST: z.coerce.number().int().min(0).max(1_000_000).default(200),
  // Attachment storage (lib/domain/attachments/storage): local disk under DATA_DIR, or an S3-compatible store.
  STORAGE_DRIVER: z.enum(["local", "s3"]).default("local"),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanString.default(false),
  ATTACHMENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  ACTIVITY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // The audit log (who changed what) is kept this long; lib/records/audit/purge-old-audit-events.ts.
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  // Message bodies, variables and stored MIME are purged after this; metadata and events stay.
  RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Scheduled sends (docs/api.md#decided-scheduled-sends): how far ahead scheduledAt may be.
  SCHEDULE_MAX_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  // Provider hand-off attempts before a transient failure (4xx, timeout, 429/5xx) fails the message.
  DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(9),
  // A sent message with no delivery confirmation after this many minutes is flagged (0 turns it off).
  DELIVERY_UNCONFIRMED_AFTER_MINUTES: z.coerce.number().int().min(0).max(100_000).default(60),
  // Automatic pause: rates over the last 1,000 live messages, once at least AUTO_PAUSE_MIN_MESSAGES were sent.
  AUTO_PAUSE_BOUNCE_RATE: z.coerce.number().min(0).max(1).default(0.1),
  AUTO_PAUSE_COMPLAINT_RATE: z.coerce.number().min(0).max(1).default(0.001),
  AUTO_PAUSE_MIN_MESSAGES: z.coerce.number().int().min(1).max(1000).default(100),
  // Domain verification: "dns" looks the records up; "off" marks domains verified when added (self-hosted, no DNS).
  DOMAIN_VERIFICATION: z.enum(["dns", "off"]).default("dns"),
  // Resolvers for domain verification, comma-separated host[:port]; the system's when unset.
  DNS_SERVERS: z.string().regex(/^[^,\s]+(,[^,\s]+)*$/, "must be host[:port] entries separated by commas").optional(),
  // SMTP submission (lib/entry/submission, docs/self-hosting.md#smtp-submission): unset ports, no listener.
  // SMTP_SUBMISSION_PORT speaks plain SMTP with STARTTLS (587), SMTP_SUBMISSION_TLS_PORT implicit TLS (465).
  SMTP_SUBMISSION_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SMTP_SUBMISSION_TLS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SMTP_SUBMISSION_HOST: z.string().min(1).default("0.0.0.0"),
  // The name the listener greets with (EHLO/banner); the DNS name clients connect to and the certificate is for.
  SMTP_SUBMISSION_HOSTNAME: z.string().min(1).max(253).optional(),
  // PEM files; read at start and again whenever they change (a renewed certificate needs no restart).
  SMTP_TLS_CERT: z.string().min(1).optional(),
  SMTP_TLS_KEY: z.string().min(1).optional(),
  // AUTH without TLS, for clients on the same host only: honored for loopback connections, never for others.
  SMTP_ALLOW_INSECURE_AUTH: booleanString.default(false),
  // The largest message (bytes, as sent: encoded attachments included), announced as SIZE. 55 MB holds
  // the API's 40 MB of attachments per message once base64-encoded.
  SMTP_MAX_MESSAGE_BYTES: z.coerce.number().int().min(1024).max(200 * 1024 * 1024).default(55 * 1024 * 1024),
  // Outbound webhooks (docs/webhooks.md). Private targets (loopback, RFC 1918, link-local, ULA) are refused
  // unless allowed; the cloud metadata addresses are refused even then. http:// only when allowed.
  WEBHOOKS_ALLOW_PRIVATE: booleanString.default(false),
  WEBHOOKS_ALLOW_HTTP: booleanString.default(false),
  // Deliveries in a row that exhaust every attempt before an endpoint is disabled (0: only the 5-day rule).
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(0).max(1_000_000).default(100),
  // Attempts, deliveries and the GET /v1/events feed are kept this long.
  WEBHOOK_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Requests in flight to one endpoint, per worker process.
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(10),
  // Webhook requests of one worker process sent and not yet recorded: what a SIGKILL can send twice.
  WEBHOOK_MAX_UNRECORDED: z.coerce.number().int().min(1).max(10_000).default(50),
  // Mail first: a worker delivering mail lets its webhook turns wait; past this bound they go one at a time (0: side by side).
  WEBHOOK_MAIL_FIRST_SECONDS: z.coerce.number().min(0).max(300).default(5),
  // Sender of sign-in links and invitations (the "System mail" workspace); its domain is verified there at boot.
  SYSTEM_EMAIL_FROM: z.string().min(3).max(320).default("Postwerk <no-reply@postwerk.localhost>"),
}).superRefine((values, ctx) => {
  if (values.HTTP_HEADERS_TIMEOUT_MS > values.HTTP_REQUEST_TIMEOUT_MS) {
    ctx.addIssue({ code: "custom", path: ["HTTP_HEADERS_TIMEOUT_MS"], message: "must not exceed HTTP_REQUEST_TIMEOUT_MS" });
  }
  if (values.SMTP_INBOUND_PORT !== undefined && !values.BOUNCE_DOMAIN) {
    ctx.addIssue({ code: "custom", path: ["BOUNCE_DOMAIN"], message: "is required when SMTP_INBOUND_PORT is set (the listener takes mail only for it)" });
  }
  if (values.STORAGE_DRIVER === "s3" && !values.S3_BUCKET) {
    ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "is required when STORAGE_DRIVER=s3" });
  }
  if (Boolean(values.AWS_ACCESS_KEY_ID) !== Boolean(values.AWS_SECRET_ACCESS_KEY)) {
    ctx.addIssue({ code: "custom", path: ["AWS_SECRET_ACCESS_KEY"], message: "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together" });
  }
  if (values.SNS_TEST_TRUSTED_ORIGIN && values.NODE_ENV !== "test" && !values.POSTWERK_ALLOW_INSECURE_TEST_SETTINGS) {
    ctx.addIssue({
      code: "custom",
      path: ["SNS_TEST_TRUSTED_ORIGIN"],
      message: "is a test setting (it trusts SNS certificates from another origin): honored only with NODE_ENV=test or POSTWERK_ALLOW_INSECURE_TEST_SETTINGS=true",
    });
  }
  if (values.SMTP_SUBMISSION_TLS_PORT !== undefined && !(values.SMTP_TLS_CERT && values.SMTP_TLS_KEY)) {
    ctx.addIssue({ code: "custom", path: ["SMTP_SUBMISSION_TLS_PORT"], message: "needs SMTP_TLS_CERT and SMTP_TLS_KEY (implicit TLS)" });
  }
  if (Boolean(values.SMTP_TLS_CERT) !== Boolean(values.SMTP_TLS_KEY)) {
    ctx.addIssue({ code: "custom", path: ["SMTP_TLS_KEY"], message: "SMTP_TLS_CERT and SMTP_TLS_KEY go together" });
  }
  if (Boolean(values.S3_ACCESS_KEY_ID) !== Boolean(values.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({ code: "custom", path: ["S3_SECRET_ACCESS_KEY"], message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together" });
  }
});

export type Env = z.infer<typeof envSchema> & { APP_URL: string; AUTH_SECRET: string; DATA_DIR: string };

let cached: Env | undefined;

/** Reads and validates process.env once; throws a readable error naming each bad variable. */
export function env(): Env {
  if (cached) return cached;
  const parsed = envSchema.safeParse(emptyStringsAsUnset(process.env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const values = parsed.data;
  const dataDir = path.resolve(values.DATA_DIR);
  cached = {
    ...values,
    DATA_DIR: dataDir,
    APP_URL: (values.APP_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, ""),
    AUTH_SECRET: values.AUTH_SECRET ?? persistedSecret(dataDir),
  };
  return cached;
}

/** Tests change settings between cases; production never calls this. */
export function resetEnvForTests(): void {
  cached = undefined;
}

function emptyStringsAsUnset(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== "")) as Record<
    string,
    string
  >;
}

/**
 * AUTH_SECRET signs sessions, tracking links and upload URLs. When the operator gives none we make
 * one and keep it under DATA_DIR, so restarts keep links and sessions valid.
 */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      // Another process wrote it first: use theirs.
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}
