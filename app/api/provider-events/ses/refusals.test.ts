import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearSnsCertificateCacheForTests, isSnsUrl } from "@/lib/delivery/providers/ses/sns-certificates";
import { resetEnvForTests, env } from "@/lib/foundation/env";
import { startFakeSns, sesEvent, TEST_TOPIC_ARN, type FakeSns } from "@/lib/testing/fake-sns";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";
import { POST } from "./handlers";

/** What /api/provider-events/ses refuses: forged, altered, replayed, foreign topics and certificates. Nothing is recorded. */
const SETTINGS = [
  "SES_SNS_TOPIC_ARNS",
  "SNS_TEST_TRUSTED_ORIGIN",
  "NODE_ENV",
  "POSTWERK_ALLOW_INSECURE_TEST_SETTINGS",
] as const;
const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));
const OTHER_TOPIC = "arn:aws:sns:us-east-1:210987654321:someone-else";
let sns: FakeSns;
let workspaceId: string;

beforeAll(async () => {
  sns = await startFakeSns();
  useSettings({ SES_SNS_TOPIC_ARNS: TEST_TOPIC_ARN, SNS_TEST_TRUSTED_ORIGIN: sns.origin });
  workspaceId = (await createTestWorkspace()).workspace.id;
});

beforeEach(() => clearSnsCertificateCacheForTests());

afterAll(async () => {
  useSettings(saved);
  await sns.close();
});

const post = (body: unknown) =>
  callRoute(POST, "/api/provider-events/ses", {
    method: "POST",
    rawBody: typeof body === "string" ? body : JSON.stringify(body),
  });

async function delivery() {
  const sesMessageId = `0102${randomUUID().replaceAll("-", "")}-000000`;
  const id = await insertTestMessage(workspaceId, {
    referenceId: sesMessageId,
    status: "SUCCEEDED",
    sentAt: new Date(),
  });
  const message = sesEvent("Delivery", sesMessageId, {
    delivery: { timestamp: new Date().toISOString(), recipients: ["ada@example.org"] },
  });
  return { id, message };
}

describe("POST /api/provider-events/ses refuses", () => {
  it("a forged signature, an altered message, a replay and an unsigned body with 401, recording nothing", async () => {
    const { id, message } = await delivery();
    const forged = sns.notification(message, { certificateUrl: sns.otherCertificateUrl });
    const altered = { ...sns.notification(message), Message: message.replace("ada@example.org", "eve@example.org") };
    const retyped = {
      ...sns.notification(message),
      Type: "SubscriptionConfirmation",
      Token: "t",
      SubscribeURL: `${sns.origin}/?Action=ConfirmSubscription&Token=t`,
    };
    const downgraded = { ...sns.notification(message, { version: "2" }), SignatureVersion: "1" };
    const replayed = sns.notification(message, { timestamp: new Date(Date.now() - 66 * 60_000) });
    const future = sns.notification(message, { timestamp: new Date(Date.now() + 10 * 60_000) });
    const unsigned = JSON.parse(message) as unknown; // raw message delivery: the bare SES event
    for (const body of [forged, altered, retyped, downgraded, replayed, future, unsigned]) {
      const response = await post(body);
      expect(response.status).toBe(401);
      expect(response.json.error.code).toBe("UNAUTHORIZED");
      expect(response.headers.get("www-authenticate")).toBeNull();
    }
    expect((await post(replayed)).json.error.message).toContain("too old");
    expect((await readMessageState(id)).events).toHaveLength(0);
    // The genuine message still lands.
    expect((await post(sns.notification(message))).json.data.outcome).toBe("recorded");
  });

  it("a certificate not on an sns.<region>.amazonaws.com HTTPS host, without fetching it", async () => {
    const { id, message } = await delivery();
    for (const url of [
      "https://sns.us-east-1.amazonaws.com.evil.example/SimpleNotificationService-1.pem",
      "http://sns.us-east-1.amazonaws.com/SimpleNotificationService-1.pem",
      "https://sns.us-east-1.amazonaws.com:8443/SimpleNotificationService-1.pem",
      "https://evil.example/sns.us-east-1.amazonaws.com/cert.pem",
      "https://user@sns.us-east-1.amazonaws.com/SimpleNotificationService-1.pem",
      `${sns.origin}/cert.txt`,
      "http://169.254.169.254/latest/meta-data/cert.pem",
    ]) {
      const response = await post(sns.notification(message, { certificateUrl: url }));
      expect(response.status, url).toBe(401);
      expect(response.json.error.param).toBe("SigningCertURL");
    }
    expect((await readMessageState(id)).events).toHaveLength(0);
  });

  it("a certificate URL that serves none, fetched once a minute however often it is named", async () => {
    const { message } = await delivery();
    const before = sns.certificateFetches.filter((path) => path === "/missing.pem").length;
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await post(sns.notification(message, { certificateUrl: `${sns.origin}/missing.pem` }));
      expect(response.status).toBe(401);
      expect(response.json.error.message).toContain("HTTP 404");
    }
    expect(sns.certificateFetches.filter((path) => path === "/missing.pem").length - before).toBe(1);
  });

  it("a topic not in SES_SNS_TOPIC_ARNS with 403, whether a notification or a subscription", async () => {
    const { id, message } = await delivery();
    const notification = await post(sns.notification(message, { topicArn: OTHER_TOPIC }));
    expect(notification.status).toBe(403);
    expect(notification.json.error).toMatchObject({ code: "FORBIDDEN", param: "TopicArn" });
    const subscription = await post(sns.subscriptionConfirmation({ topicArn: OTHER_TOPIC }));
    expect(subscription.status).toBe(403);
    expect(sns.confirmations).toHaveLength(0);
    expect((await readMessageState(id)).events).toHaveLength(0);
  });

  it("malformed bodies with 400 naming the field, oversized ones with 413", async () => {
    expect((await post("{not json")).status).toBe(400);
    const bad = await post({ ...sns.notification("x"), Type: "Surprise" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe("Type");
    const huge = await post(sns.notification("x".repeat(400 * 1024)));
    expect(huge.status).toBe(413);
  });

  it("everything with 503 while SES_SNS_TOPIC_ARNS is not set", async () => {
    useSettings({ SES_SNS_TOPIC_ARNS: undefined });
    try {
      expect((await post(sns.subscriptionConfirmation())).status).toBe(503);
      expect(sns.confirmations).toHaveLength(0);
    } finally {
      useSettings({ SES_SNS_TOPIC_ARNS: TEST_TOPIC_ARN });
    }
  });
});

describe("SNS subscriptions", () => {
  it("confirms a SubscriptionConfirmation of a configured topic by visiting its SubscribeURL", async () => {
    const body = sns.subscriptionConfirmation();
    const response = await post(body);
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({ outcome: "confirmed", topicArn: TEST_TOPIC_ARN });
    expect(sns.confirmations).toContain(body.Token);
  });

  it("verifies a SignatureVersion 2 confirmation too; an UnsubscribeConfirmation is acknowledged, not acted on", async () => {
    const body = sns.subscriptionConfirmation({ version: "2" });
    expect((await post(body)).json.data.outcome).toBe("confirmed");
    expect(sns.confirmations).toContain(body.Token);
    const confirmations = sns.confirmations.length;
    const unsubscribed = await post(sns.unsubscribeConfirmation());
    expect(unsubscribed.status).toBe(200);
    expect(unsubscribed.json.data.outcome).toBe("ignored");
    expect(sns.confirmations).toHaveLength(confirmations);
    expect((await post({ ...sns.unsubscribeConfirmation(), Token: "changed" })).status).toBe(401);
  });

  it("never visits a SubscribeURL outside SNS", async () => {
    const before = sns.confirmations.length;
    const response = await post(
      sns.subscriptionConfirmation({ subscribeUrl: "http://169.254.169.254/latest/meta-data/" }),
    );
    expect(response.status).toBe(401);
    expect(response.json.error.param).toBe("SubscribeURL");
    expect(sns.confirmations).toHaveLength(before);
  });
});

describe("the trust of SNS URLs", () => {
  it("accepts only https://sns.<region>.amazonaws.com(.cn) in production, and refuses the test origin setting there", () => {
    expect(isSnsUrl("https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem")).toBe(true);
    expect(isSnsUrl("https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-abc.pem")).toBe(true);
    expect(isSnsUrl("https://sns.amazonaws.com.evil.example/x.pem")).toBe(false);
    expect(isSnsUrl("https://notsns.eu-west-1.amazonaws.com/x.pem")).toBe(false);
    try {
      useSettings({ NODE_ENV: "production" });
      expect(() => env()).toThrow(/SNS_TEST_TRUSTED_ORIGIN: is a test setting/);
      useSettings({ POSTWERK_ALLOW_INSECURE_TEST_SETTINGS: "true" });
      expect(env().SNS_TEST_TRUSTED_ORIGIN).toBe(sns.origin);
    } finally {
      useSettings({
        NODE_ENV: saved.NODE_ENV,
        POSTWERK_ALLOW_INSECURE_TEST_SETTINGS: saved.POSTWERK_ALLOW_INSECURE_TEST_SETTINGS,
      });
      resetEnvForTests();
    }
  });
});
