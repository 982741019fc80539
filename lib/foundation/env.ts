import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

// Every setting, validated in one place and documented in .env.example; the defaults run embedded mode with no configuration.
const booleanString = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

/** A positive whole number that fits Node's timers (a signed 32-bit millisecond count). */
function httpSetting(fallback: number) {
  return z.coerce.number().int().min(1).max(2_147_483_647).default(fallback);
}

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    APP_URL: z.url().optional(),
    DATA_DIR: z.string().min(1).default("./.data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    DELIVERY_PROVIDER: z.enum(["local", "smtp", "resend", "ses"]).default("local"),
    SMTP_URL: z.string().optional(),
    SMTP_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(5),
    SMTP_TLS_REJECT_UNAUTHORIZED: booleanString.default(true),
    SMTP_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
    BOUNCE_DOMAIN: z
      .string()
      .regex(
        /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i,
        "must be a domain name, e.g. bounces.example.com",
      )
      .transform((value) => value.toLowerCase())
      .optional(),
    SMTP_INBOUND_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    SMTP_INBOUND_HOST: z.string().min(1).default("0.0.0.0"),
    // The largest mail the inbound listener takes (docs/inbound.md#safety-and-limits); SMTP_INBOUND_MAX_BYTES is its old name.
    INBOUND_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(10_000)
      .max(100 * 1024 * 1024)
      .default(35 * 1024 * 1024),
    SMTP_INBOUND_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(10_000)
      .max(100 * 1024 * 1024)
      .optional(),
    INBOUND_MAX_RECIPIENTS: z.coerce.number().int().min(1).max(1000).default(50),
    INBOUND_RATE_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
    SMTP_INBOUND_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(10_000).default(100),
    SMTP_INBOUND_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
    /** The inbound listener's own STARTTLS certificate; unset: SMTP_TLS_CERT/SMTP_TLS_KEY, the submission's. */
    INBOUND_TLS_CERT: z.string().min(1).optional(),
    INBOUND_TLS_KEY: z.string().min(1).optional(),
    INBOUND_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    // The host inbound domains' MX records name (docs/inbound.md#dns-and-ports); unset: the host of APP_URL.
    INBOUND_MX_HOST: z
      .string()
      .regex(
        /^(?=.{1,253}\.?$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.?$/i,
        "must be a host name, e.g. mx.example.com",
      )
      .transform((value) => value.toLowerCase().replace(/\.$/, ""))
      .optional(),
    // Content checks on every send (docs/deliverability.md#content-checks): warn notes findings on the timeline,
    // block refuses content with an error finding (422 CONTENT_CHECK_FAILED); off checks nothing.
    CONTENT_CHECKS: z.enum(["off", "warn", "block"]).default("off"),
    // SpamAssassin's spamd for inbound mail's spam verdict (docs/inbound.md#authentication-and-spam-checks); unset: not checked.
    SPAMD_URL: z
      .string()
      .refine(
        (value) => /^(spamd|tcp):\/\/[^/?#\s]+\/?$/i.test(value) && URL.canParse(value),
        "must be spamd://host:port or tcp://host:port (SpamAssassin's spamd; port 783 when omitted)",
      )
      .optional(),
    // An inbound mail forwarded this many times is stored but not forwarded again (docs/inbound.md#loops).
    INBOUND_MAX_HOPS: z.coerce.number().int().min(1).max(50).default(5),
    // The SIGKILL duplicate bound (lib/delivery/unrecorded-gate.ts); unset: 4 × SMTP_POOL_SIZE.
    DELIVERY_MAX_UNRECORDED: z.coerce.number().int().min(1).max(10_000).optional(),
    RESEND_API_KEY: z.string().optional(),
    RESEND_BASE_URL: z.url().optional(),
    RESEND_WEBHOOK_SECRET: z
      .string()
      .startsWith("whsec_", "must be the whsec_… signing secret Resend shows for the webhook")
      .optional(),
    AWS_REGION: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, "must be an AWS region such as eu-west-1")
      .optional(),
    AWS_ACCESS_KEY_ID: z.string().min(16).max(128).optional(),
    AWS_SECRET_ACCESS_KEY: z.string().min(16).max(256).optional(),
    AWS_SESSION_TOKEN: z.string().min(1).optional(),
    SES_CONFIGURATION_SET: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be a configuration set name (letters, digits, _ and -)")
      .optional(),
    SES_ENDPOINT: z.url().optional(),
    SES_SNS_TOPIC_ARNS: z
      .string()
      .regex(
        /^\s*arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\s*,\s*arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256})*\s*$/,
        "must be SNS topic ARNs separated by commas",
      )
      .transform((value) => value.split(",").map((arn) => arn.trim()))
      .optional(),
    POSTWERK_ALLOW_INSECURE_TEST_SETTINGS: booleanString.default(false),
    SNS_TEST_TRUSTED_ORIGIN: z.url().optional(),
    RUN_WORKER: booleanString.default(true),
    PGLITE_THREAD: booleanString.default(true),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(5),
    SEED_DEMO: booleanString.default(true),
    SEED_API_KEY: z
      .string()
      .regex(/^key_[0-9A-Za-z]{16}:[0-9A-Za-z_-]{32,}$/, "must be key_<16 base62>:<secret of 32+ characters>")
      .optional(),
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").max(512).optional(),
    WORKER_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    // Readiness fails when a delivery has waited this long and no worker checked in for as long; 0: never.
    // At least 30: workers check in every 15 s (lib/entry/worker/heartbeat.ts).
    READY_WORKER_STALL_SECONDS: z.coerce
      .number()
      .int()
      .max(86_400)
      .refine((value) => value === 0 || value >= 30, "must be 0 (off) or 30 to 86400 (workers check in every 15 s)")
      .default(120),
    // The production HTTP server (lib/entry/http/hardened-server.ts).
    HTTP_HEADERS_TIMEOUT_MS: httpSetting(10_000),
    HTTP_IDLE_TIMEOUT_MS: httpSetting(10_000),
    HTTP_REQUEST_TIMEOUT_MS: httpSetting(60_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: httpSetting(5_000),
    HTTP_MAX_REQUESTS_PER_SOCKET: httpSetting(1_000),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(0).max(1_000_000).default(100),
    RATE_LIMIT_BURST: z.coerce.number().int().min(0).max(1_000_000).default(200),
    STORAGE_DRIVER: z.enum(["local", "s3"]).default("local"),
    S3_ENDPOINT: z.url().optional(),
    S3_REGION: z.string().min(1).default("us-east-1"),
    S3_BUCKET: z.string().min(3).max(63).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: booleanString.default(false),
    ATTACHMENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    ACTIVITY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
    // Retention (docs/retention.md): the defaults of a workspace's windows and the ceilings no workspace passes.
    RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    METADATA_RETENTION_DAYS: z.coerce.number().int().min(7).max(3650).default(3650),
    RETENTION_MAX_BODY_DAYS: z.coerce.number().int().min(1).max(365).default(365),
    RETENTION_MAX_METADATA_DAYS: z.coerce.number().int().min(7).max(3650).default(3650),
    SCHEDULE_MAX_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(9),
    DELIVERY_UNCONFIRMED_AFTER_MINUTES: z.coerce.number().int().min(0).max(100_000).default(60),
    AUTO_PAUSE_BOUNCE_RATE: z.coerce.number().min(0).max(1).default(0.1),
    AUTO_PAUSE_COMPLAINT_RATE: z.coerce.number().min(0).max(1).default(0.001),
    AUTO_PAUSE_MIN_MESSAGES: z.coerce.number().int().min(1).max(1000).default(100),
    DOMAIN_VERIFICATION: z.enum(["dns", "off"]).default("dns"),
    DNS_SERVERS: z
      .string()
      .regex(/^[^,\s]+(,[^,\s]+)*$/, "must be host[:port] entries separated by commas")
      .optional(),
    SMTP_SUBMISSION_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    SMTP_SUBMISSION_TLS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    SMTP_SUBMISSION_HOST: z.string().min(1).default("0.0.0.0"),
    SMTP_SUBMISSION_HOSTNAME: z.string().min(1).max(253).optional(),
    SMTP_TLS_CERT: z.string().min(1).optional(),
    SMTP_TLS_KEY: z.string().min(1).optional(),
    SMTP_ALLOW_INSECURE_AUTH: booleanString.default(false),
    // 55 MB holds the API's 40 MB of attachments once base64-encoded.
    SMTP_MAX_MESSAGE_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(200 * 1024 * 1024)
      .default(55 * 1024 * 1024),
    // Development in one step: both of the two below (plain http:// and loopback/private targets).
    WEBHOOKS_ALLOW_LOCAL: booleanString.default(false),
    WEBHOOKS_ALLOW_PRIVATE: booleanString.default(false),
    WEBHOOKS_ALLOW_HTTP: booleanString.default(false),
    // Workspace provider connections (docs/delivery.md#routing-and-failover): hosts on private addresses, and the breaker.
    PROVIDERS_ALLOW_PRIVATE: booleanString.default(false),
    PROVIDER_CIRCUIT_FAILURES: z.coerce.number().int().min(1).max(10_000).default(5),
    PROVIDER_CIRCUIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    PROVIDER_CIRCUIT_OPEN_SECONDS: z.coerce.number().min(0.1).max(86_400).default(30),
    WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(0).max(1_000_000).default(100),
    WEBHOOK_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(10),
    // Webhook requests of one worker process sent and not yet recorded: what a SIGKILL can send twice.
    WEBHOOK_MAX_UNRECORDED: z.coerce.number().int().min(1).max(10_000).default(50),
    // Mail first: a worker delivering mail lets its webhook turns wait; past this bound they go one at a time (0: side by side).
    WEBHOOK_MAIL_FIRST_SECONDS: z.coerce.number().min(0).max(300).default(5),
    SYSTEM_EMAIL_FROM: z.string().min(3).max(320).default("Postwerk <no-reply@postwerk.localhost>"),
  })
  .superRefine((values, ctx) => {
    if (values.HTTP_HEADERS_TIMEOUT_MS > values.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["HTTP_HEADERS_TIMEOUT_MS"],
        message: "must not exceed HTTP_REQUEST_TIMEOUT_MS",
      });
    }
    if (values.STORAGE_DRIVER === "s3" && !values.S3_BUCKET) {
      ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "is required when STORAGE_DRIVER=s3" });
    }
    if (Boolean(values.AWS_ACCESS_KEY_ID) !== Boolean(values.AWS_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["AWS_SECRET_ACCESS_KEY"],
        message: "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together",
      });
    }
    if (values.SNS_TEST_TRUSTED_ORIGIN && values.NODE_ENV !== "test" && !values.POSTWERK_ALLOW_INSECURE_TEST_SETTINGS) {
      ctx.addIssue({
        code: "custom",
        path: ["SNS_TEST_TRUSTED_ORIGIN"],
        message:
          "is a test setting (it trusts SNS certificates from another origin): honored only with NODE_ENV=test or POSTWERK_ALLOW_INSECURE_TEST_SETTINGS=true",
      });
    }
    if (values.SMTP_SUBMISSION_TLS_PORT !== undefined && !(values.SMTP_TLS_CERT && values.SMTP_TLS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["SMTP_SUBMISSION_TLS_PORT"],
        message: "needs SMTP_TLS_CERT and SMTP_TLS_KEY (implicit TLS)",
      });
    }
    if (Boolean(values.SMTP_TLS_CERT) !== Boolean(values.SMTP_TLS_KEY)) {
      ctx.addIssue({ code: "custom", path: ["SMTP_TLS_KEY"], message: "SMTP_TLS_CERT and SMTP_TLS_KEY go together" });
    }
    if (Boolean(values.INBOUND_TLS_CERT) !== Boolean(values.INBOUND_TLS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["INBOUND_TLS_KEY"],
        message: "INBOUND_TLS_CERT and INBOUND_TLS_KEY go together",
      });
    }
    if (Boolean(values.S3_ACCESS_KEY_ID) !== Boolean(values.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["S3_SECRET_ACCESS_KEY"],
        message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together",
      });
    }
  });

/** Every setting with its default (undefined: none), for the checks that the Dockerfile and compose.yaml set only real ones. */
export function settingDefaults(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(envSchema.shape).map(([name, schema]) => [name, schema.safeParse(undefined).data]),
  );
}

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

export function resetEnvForTests(): void {
  cached = undefined;
}

function emptyStringsAsUnset(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ""),
  ) as Record<string, string>;
}

/** An AUTH_SECRET made once and kept under DATA_DIR when the operator gives none, so restarts keep links and sessions valid. */
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
