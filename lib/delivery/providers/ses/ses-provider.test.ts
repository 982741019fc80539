import { dkimVerify } from "mailauth";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as snsRoute } from "@/app/api/provider-events/ses/handlers";
import { dkimTxtRecord, forgetDkimKeys } from "@/lib/delivery/mime/dkim-keys";
import { buildMime, type MailFields } from "@/lib/delivery/mime/build-mime";
import { getDeliveryProvider } from "@/lib/delivery/registry";
import { getDb } from "@/db/client";
import { sendMessage } from "@/lib/sending/send-message";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { startFakeSes, type FakeSes } from "@/lib/testing/fake-ses";
import { startFakeSns, sesEvent, TEST_TOPIC_ARN, type FakeSns } from "@/lib/testing/fake-sns";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";
import { waitFor } from "@/lib/testing/wait-for";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { MESSAGE_ID_TAG, sesFailure, sesProvider } from "./ses-provider";

/** DELIVERY_PROVIDER=ses against a local SES v2 stand-in (real HTTP, the real AWS SDK), then its events back through SNS. */
const SETTINGS = [
  "DELIVERY_PROVIDER",
  "AWS_REGION",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "SES_ENDPOINT",
  "SES_CONFIGURATION_SET",
  "SES_SNS_TOPIC_ARNS",
  "SNS_TEST_TRUSTED_ORIGIN",
] as const;
const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));
let ses: FakeSes;
let sns: FakeSns;

beforeAll(async () => {
  ses = await startFakeSes();
  sns = await startFakeSns();
  useSettings({
    DELIVERY_PROVIDER: "ses",
    AWS_REGION: "eu-west-1",
    AWS_ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE",
    AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    SES_ENDPOINT: ses.url,
    SES_CONFIGURATION_SET: "postwerk-events",
    SES_SNS_TOPIC_ARNS: TEST_TOPIC_ARN,
    SNS_TEST_TRUSTED_ORIGIN: sns.origin,
  });
});

afterAll(async () => {
  await stopWorkers();
  useSettings(saved);
  forgetDkimKeys();
  await ses.close();
  await sns.close();
});

const callsFor = (messageId: string) => ses.calls.filter((call) => call.tags.some((tag) => tag.Value === messageId));

describe("the ses provider", () => {
  it("sends our own DKIM-signed MIME (valid after SES rewrites Message-ID and Date) through the workers with the configuration set; SES's MessageId is the referenceId", async () => {
    const { workspace, domain } = await createTestWorkspace();
    await startWorkers({ pollingIntervalSeconds: 0.5 });
    const { message } = await sendMessage({
      workspaceId: workspace.id,
      sandbox: false,
      body: {
        from: "Acme <hello@example.com>",
        to: "Ada <ada@example.org>",
        bcc: "bcc@example.org",
        subject: "Your receipt",
        bodyHtml: "<p>Hi Ada</p>",
        bodyText: "Hi Ada",
      },
    });
    await waitFor(async () => (await readMessageState(message.id)).message.status === "SUCCEEDED", {
      what: `message ${message.id} to be SUCCEEDED`,
    });
    await stopWorkers();

    const calls = callsFor(message.id);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/eu-west-1\/ses\/aws4_request, /,
    );
    expect(call.configurationSet).toBe("postwerk-events");
    expect(call.destination).toEqual(["ada@example.org", "bcc@example.org"]);
    expect(call.tags).toEqual([{ Name: MESSAGE_ID_TAG, Value: message.id }]);
    const parsed = await simpleParser(call.raw);
    expect(parsed.messageId).toBe(`<${message.id}@example.com>`);
    expect(parsed.subject).toBe("Your receipt");
    expect(parsed.headers.has("bcc")).toBe(false);
    expect(call.raw).not.toContain("bcc@example.org");
    // Our signature survives SES's own Message-ID and Date: it does not cover them.
    expect(call.delivered).not.toContain(`<${message.id}@example.com>`);
    const dkim = await dkimVerify(Buffer.from(call.delivered!), {
      resolver: async (name: string, type: string) => {
        if (type === "TXT" && name === "postwerk._domainkey.example.com")
          return [[dkimTxtRecord(domain.dkimPublicKey)]];
        throw Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" });
      },
    });
    expect(dkim.results[0]).toMatchObject({ signingDomain: "example.com", status: { result: "pass" } });

    const { message: row, events } = await readMessageState(message.id);
    expect(row.referenceId).toBe(call.messageId);
    expect(
      events.filter((event) => event.code === "EMAIL_MESSAGE_SENT_PROVIDER_EVENT").map((event) => event.message),
    ).toEqual(["Sent through Amazon SES."]);
    expect(row.deliveredAt).toBeNull();

    // SES then reports the delivery through SNS: the timeline shows DELIVERED.
    const at = new Date();
    const notification = sns.notification(
      sesEvent("Delivery", call.messageId!, {
        delivery: { timestamp: at.toISOString(), recipients: ["ada@example.org"] },
      }),
    );
    const response = await callRoute(snsRoute, "/api/provider-events/ses", {
      method: "POST",
      rawBody: JSON.stringify(notification),
    });
    expect(response.json.data).toEqual({ outcome: "recorded", messageId: message.id });
    expect((await readMessageState(message.id)).message.deliveredAt?.toISOString()).toBe(at.toISOString());
  });

  it("retries throttling (429 TooManyRequests) and 5xx like an SMTP 4xx, then sends", async () => {
    const { workspace } = await createTestWorkspace();
    const messageId = await insertTestMessage(workspace.id, { from: "Acme <hello@example.com>" });
    const job = { workspaceId: workspace.id, messageId };
    ses.failNext(429, "TooManyRequestsException", "Maximum sending rate exceeded.");
    await expect(deliverMessage(job, { attempt: 0 })).rejects.toThrow(
      "Maximum sending rate exceeded. (HTTP 429, TooManyRequestsException)",
    );
    ses.failNext(500, "InternalFailure", "We encountered an internal error.");
    await expect(deliverMessage(job, { attempt: 1 })).rejects.toThrow(/HTTP 500/);
    expect((await readMessageState(messageId)).message.status).toBe("PENDING");
    expect((await readMessageState(messageId)).codes).toEqual([
      "EMAIL_MESSAGE_ATTEMPT_FAILED",
      "EMAIL_MESSAGE_ATTEMPT_FAILED",
    ]);
    await deliverMessage(job, { attempt: 2 });
    const { message, codes } = await readMessageState(messageId);
    expect(message.status).toBe("SUCCEEDED");
    expect(codes).toEqual([
      "EMAIL_MESSAGE_ATTEMPT_FAILED",
      "EMAIL_MESSAGE_ATTEMPT_FAILED",
      "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
    ]);
    expect(callsFor(messageId).map((call) => call.status)).toEqual([429, 500, 200]);
  });

  it("a MessageRejected fails the message with SES's reason on the timeline", async () => {
    const { workspace } = await createTestWorkspace();
    const messageId = await insertTestMessage(workspace.id, { from: "Acme <hello@example.com>" });
    ses.failNext(
      400,
      "MessageRejected",
      "Email address is not verified. The following identities failed the check in region EU-WEST-1: hello@example.com",
    );
    await deliverMessage({ workspaceId: workspace.id, messageId }, { attempt: 0 });
    const { message, events } = await readMessageState(messageId);
    expect(message.status).toBe("FAILED");
    expect(events.find((event) => event.code === "EMAIL_MESSAGE_PROVIDER_ERROR")?.message).toContain(
      "Email address is not verified. The following identities failed the check in region EU-WEST-1: hello@example.com (HTTP 400, MessageRejected)",
    );
  });

  it("no answer at all is a retry; an answer without a region stops the workers at start", async () => {
    const fields: MailFields = {
      from: "hello@example.com",
      to: ["ada@example.org"],
      cc: [],
      bcc: [],
      replyTo: null,
      subject: "Hi",
      html: "<p>Hi</p>",
      text: "Hi",
      references: null,
      attachments: [],
    };
    const { workspace } = await createTestWorkspace();
    const provider = sesProvider({ region: "eu-west-1", endpoint: "http://127.0.0.1:9" });
    const mail = { workspaceId: workspace.id, messageId: "em_x", fields, mime: await buildMime("em_x", fields) };
    expect((await provider.send(mail, { db: await getDb(), attempt: 0 })).outcome).toBe("retry");
    expect(
      sesFailure(
        Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException", $metadata: { httpStatusCode: 400 } }),
      ).outcome,
    ).toBe("retry");
    expect(
      sesFailure(Object.assign(new Error("bad"), { name: "BadRequestException", $metadata: { httpStatusCode: 400 } }))
        .outcome,
    ).toBe("failed");
    try {
      useSettings({ AWS_REGION: undefined });
      expect(() => getDeliveryProvider()).toThrow("DELIVERY_PROVIDER=ses needs AWS_REGION");
    } finally {
      useSettings({ AWS_REGION: "eu-west-1" });
    }
  });
});
