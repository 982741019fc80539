import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { workerHeartbeats } from "@/db/schema";
import { resetEnvForTests } from "@/lib/foundation/env";
import { VERSION } from "@/lib/foundation/version";
import { getQueue, QUEUES } from "@/lib/records/queue/queue";
import { recordWorkerHeartbeat } from "@/lib/records/queue/worker-heartbeats";
import { describeInstance } from "./describe-instance";

const SECRETS = {
  dbPassword: "db-pass-Quokka-7781",
  smtpPassword: "smtp-pass-Wombat-1234",
  resendKey: "re_resendKey_Numbat_5566",
  resendWebhook: "whsec_webhookSecret_Dingo_9900",
  awsKeyId: "AKIAEXAMPLEKEYID0001",
  awsSecret: "awsSecret-Platypus-0123456789",
  awsSession: "awsSession-Echidna-42",
  metricsToken: "metrics-token-Bilby-0000",
};

function configure(values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
  resetEnvForTests();
}

function expectNoSecret(description: unknown) {
  const text = JSON.stringify(description);
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

describe("describeInstance (the owners' Instance page)", () => {
  // The database handle is opened before DATABASE_URL is pointed elsewhere: only the description reads the new value.
  beforeAll(async () => {
    await getDb();
  });

  afterEach(async () => {
    vi.unstubAllEnvs();
    resetEnvForTests();
    await (await getDb()).delete(workerHeartbeats);
  });

  it("describes the configuration with every secret reduced to whether it is set", async () => {
    const common = {
      DATABASE_URL: `postgres://postwerk:${SECRETS.dbPassword}@db.internal:6543/mail`,
      METRICS_TOKEN: SECRETS.metricsToken,
      SMTP_SUBMISSION_PORT: "587",
      WEBHOOKS_ALLOW_HTTP: "true",
      RETENTION_DAYS: "14",
      RUN_WORKER: "false",
    };
    configure({
      ...common,
      DELIVERY_PROVIDER: "smtp",
      SMTP_URL: `smtp://relay-user:${SECRETS.smtpPassword}@smtp.example.com:2525`,
    });
    const smtp = await describeInstance();
    expect(smtp).toMatchObject({
      version: VERSION,
      database: { kind: "postgres", host: "db.internal:6543", database: "mail" },
      delivery: {
        provider: "smtp",
        settings: expect.arrayContaining([
          { label: "Relay", kind: "value", value: "smtp://smtp.example.com:2525" },
          { label: "User name", kind: "value", value: "relay-user" },
          { label: "Password", kind: "secret", set: true },
        ]),
      },
      workers: { runsHere: false },
      webhooks: { allowHttp: true, allowPrivate: false, allowLocal: false },
      metrics: { on: true, tokenSet: true },
      tracing: { on: false, sampler: "parentbased_always_on" },
      retention: { messageBodiesDays: 14 },
    });
    expect(smtp.listeners).toContainEqual({ label: "SMTP submission (STARTTLS)", port: 587 });
    expect(smtp.listeners).toContainEqual({ label: "Inbound mail, bounces and complaints (SMTP)", port: null });
    expect(smtp.queues.map((queue) => queue.name).sort()).toEqual(Object.values(QUEUES).sort());
    // Plain JSON: what the page receives survives a round trip unchanged.
    expect(JSON.parse(JSON.stringify(smtp))).toEqual(smtp);
    expectNoSecret(smtp);

    vi.unstubAllEnvs();
    configure({
      ...common,
      DELIVERY_PROVIDER: "resend",
      RESEND_API_KEY: SECRETS.resendKey,
      RESEND_WEBHOOK_SECRET: SECRETS.resendWebhook,
    });
    const resend = await describeInstance();
    expect(resend.delivery.settings).toContainEqual({ label: "API key", kind: "secret", set: true });
    expect(resend.delivery.settings).toContainEqual({ label: "Webhook signing secret", kind: "secret", set: true });
    expectNoSecret(resend);

    vi.unstubAllEnvs();
    configure({
      ...common,
      DELIVERY_PROVIDER: "ses",
      AWS_REGION: "eu-west-1",
      AWS_ACCESS_KEY_ID: SECRETS.awsKeyId,
      AWS_SECRET_ACCESS_KEY: SECRETS.awsSecret,
      AWS_SESSION_TOKEN: SECRETS.awsSession,
    });
    const ses = await describeInstance();
    expect(ses.delivery.settings).toContainEqual({ label: "Region", kind: "value", value: "eu-west-1" });
    expect(ses.delivery.settings).toContainEqual({ label: "Access key", kind: "secret", set: true });
    expectNoSecret(ses);
  });

  it("without DATABASE_URL names the embedded database's directory; unset secrets read as not set", async () => {
    vi.stubEnv("DATABASE_URL", "");
    configure({ DELIVERY_PROVIDER: "resend" });
    const description = await describeInstance();
    expect(description.database).toEqual({ kind: "pglite", dataDirectory: expect.stringMatching(/pglite$/) });
    expect(description.delivery.settings).toContainEqual({ label: "API key", kind: "secret", set: false });
    expect(description.metrics).toEqual({ on: false, tokenSet: false });
  });

  it("lists workers seen in the last minute and the queue's waiting jobs with the oldest one's age", async () => {
    const now = new Date(Date.now() + 90_000);
    await recordWorkerHeartbeat(
      "worker-host:4242",
      new Date(now.getTime() - 3600_000),
      new Date(now.getTime() - 5_000),
    );
    await recordWorkerHeartbeat("gone-host:1", new Date(now.getTime() - 3600_000), new Date(now.getTime() - 120_000));
    const jobId = await (await getQueue()).send(QUEUES.simulateOutcome, { probe: "describe-instance" });
    try {
      const description = await describeInstance(now);
      expect(description.workers.seen).toEqual([
        {
          hostname: "worker-host",
          pid: "4242",
          startedAt: new Date(now.getTime() - 3600_000).toISOString(),
          lastSeenAt: new Date(now.getTime() - 5_000).toISOString(),
        },
      ]);
      const queue = description.queues.find((candidate) => candidate.name === QUEUES.simulateOutcome);
      expect(queue?.waiting).toBeGreaterThanOrEqual(1);
      expect(queue?.oldestWaitingSeconds).toBeGreaterThanOrEqual(85);
    } finally {
      await (await getDb()).execute(sql`delete from pgboss.job where id = ${jobId}`);
    }
  });
});
