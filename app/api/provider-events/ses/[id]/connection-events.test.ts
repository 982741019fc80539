import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createConnection } from "@/lib/domain/providers/create-connection";
import { clearSnsCertificateCacheForTests } from "@/lib/delivery/providers/ses/sns-certificates";
import { startFakeSns, sesEvent, TEST_TOPIC_ARN, type FakeSns } from "@/lib/testing/fake-sns";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";

/** A workspace SES connection's own SNS endpoint (docs/delivery.md#events-come-back-to-the-right-place). */
const saved = {
  SNS_TEST_TRUSTED_ORIGIN: process.env.SNS_TEST_TRUSTED_ORIGIN,
  SES_SNS_TOPIC_ARNS: process.env.SES_SNS_TOPIC_ARNS,
};
let sns: FakeSns;

beforeAll(async () => {
  sns = await startFakeSns();
  // The instance's own topics are not this connection's: only its snsTopicArns count here.
  useSettings({
    SNS_TEST_TRUSTED_ORIGIN: sns.origin,
    SES_SNS_TOPIC_ARNS: "arn:aws:sns:eu-west-1:123456789012:instance",
  });
});
beforeEach(() => clearSnsCertificateCacheForTests());
afterAll(async () => {
  useSettings(saved);
  await sns.close();
});

async function sesConnection(topics: string[]) {
  const { workspace } = await createTestWorkspace();
  const connection = await createConnection(
    workspace.id,
    {
      name: "own-ses",
      kind: "ses",
      region: "us-east-1",
      accessKeyId: "AKIAABCDEFGHIJKLMNOP",
      secretAccessKey: "secret",
      snsTopicArns: topics,
    },
    AUDIT_SYSTEM_ACTOR,
  );
  return { ws: workspace.id, path: `/api/provider-events/ses/${connection.id}` };
}

const post = (path: string, message: string) =>
  callApi(path, { method: "POST", rawBody: JSON.stringify(sns.notification(message)) });

describe("POST /api/provider-events/ses/:connection", () => {
  it("records an event from the connection's topic for its own workspace, and refuses other topics", async () => {
    const { ws, path } = await sesConnection([TEST_TOPIC_ARN]);
    const sesId = `0102${randomUUID().replaceAll("-", "")}-000000`;
    const id = await insertTestMessage(ws, {
      referenceId: sesId,
      status: "SUCCEEDED",
      sentAt: new Date(Date.now() - 60_000),
    });
    const delivery = { timestamp: new Date().toISOString(), recipients: ["ada@example.org"], smtpResponse: "250 OK" };
    const answer = await post(path, sesEvent("Delivery", sesId, { delivery }));
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual({ outcome: "recorded", messageId: id });
    expect((await readMessageState(id)).codes).toContain("EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT");

    const other = await sesConnection(["arn:aws:sns:us-east-1:123456789012:someone-else"]);
    const refused = await post(other.path, sesEvent("Delivery", sesId, { delivery }));
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain("is not one of the connection's snsTopicArns");
  });
});
