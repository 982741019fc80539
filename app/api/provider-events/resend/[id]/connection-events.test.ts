import { randomBytes, randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { createConnection } from "@/lib/domain/providers/create-connection";
import { updateConnection } from "@/lib/domain/providers/update-connection";
import { createTestWorkspace, insertTestMessage, readMessageState } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";

/** A workspace connection's own Resend events endpoint (docs/delivery.md#events-come-back-to-the-right-place). */
const secret = () => `whsec_${randomBytes(24).toString("base64")}`;

function deliver(path: string, signingSecret: string, emailId: string, type = "email.delivered") {
  const at = new Date();
  const rawBody = JSON.stringify({
    type,
    created_at: at.toISOString(),
    data: { created_at: at.toISOString(), email_id: emailId, from: "hello@example.com", to: ["ada@example.org"] },
  });
  const svixId = `msg_${randomUUID()}`;
  const headers = {
    "content-type": "application/json",
    "svix-id": svixId,
    "svix-timestamp": String(Math.floor(at.getTime() / 1000)),
    "svix-signature": new Webhook(signingSecret).sign(svixId, at, rawBody),
  };
  return callApi(path, { method: "POST", rawBody, headers });
}

async function resendConnection(webhookSecret: string) {
  const { workspace } = await createTestWorkspace();
  const connection = await createConnection(
    workspace.id,
    { name: "own-resend", kind: "resend", apiKey: "re_test_0123456789", webhookSecret },
    AUDIT_SYSTEM_ACTOR,
  );
  return { ws: workspace.id, connection, path: `/api/provider-events/resend/${connection.id}` };
}

describe("POST /api/provider-events/resend/:connection", () => {
  it("records an event signed with the connection's secret, and only for its own workspace's messages", async () => {
    const signing = secret();
    const { ws, path } = await resendConnection(signing);
    const emailId = randomUUID();
    const id = await insertTestMessage(ws, { referenceId: emailId, status: "SUCCEEDED", sentAt: new Date() });
    const answer = await deliver(path, signing, emailId);
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual({ outcome: "recorded", messageId: id });
    expect((await readMessageState(id)).codes).toContain("EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT");

    // Another workspace's message: this connection's secret cannot reach it.
    const { workspace: other } = await createTestWorkspace();
    const theirs = randomUUID();
    const theirId = await insertTestMessage(other.id, { referenceId: theirs, status: "SUCCEEDED", sentAt: new Date() });
    const refused = await deliver(path, signing, theirs, "email.bounced");
    expect(refused.status).toBe(409);
    expect((await readMessageState(theirId)).codes).not.toContain("EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT");
  });

  it("refuses another secret, an unknown connection and a connection of another kind", async () => {
    const { ws, path } = await resendConnection(secret());
    const emailId = randomUUID();
    await insertTestMessage(ws, { referenceId: emailId });
    expect((await deliver(path, secret(), emailId)).status).toBe(401);
    expect((await deliver("/api/provider-events/resend/pcon_0000000000000000", secret(), emailId)).status).toBe(404);
    const sim = await createConnection(ws, { name: "sim", kind: "simulator" }, AUDIT_SYSTEM_ACTOR);
    expect((await deliver(`/api/provider-events/resend/${sim.id}`, secret(), emailId)).status).toBe(404);
  });

  it("after a rotation both the new and the previous secret verify", async () => {
    const before = secret();
    const { ws, connection, path } = await resendConnection(before);
    const after = secret();
    await updateConnection(ws, connection.id, { webhookSecret: after }, AUDIT_SYSTEM_ACTOR);
    const [a, b] = [randomUUID(), randomUUID()];
    await insertTestMessage(ws, { referenceId: a, status: "SUCCEEDED", sentAt: new Date() });
    await insertTestMessage(ws, { referenceId: b, status: "SUCCEEDED", sentAt: new Date() });
    expect((await deliver(path, after, a)).status).toBe(200);
    expect((await deliver(path, before, b)).status).toBe(200);
  });
});
