import { describe, expect, it } from "vitest";
import { GET as getMessage } from "@/app/api/v1/email_messages/[id]/handlers";
import { GET as getEvents } from "@/app/api/v1/email_messages/[id]/events/handlers";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { eraseMessage } from "./erase-message";
import { sendMessage } from "@/lib/sending/send-message";

const body = {
  from: "hello@example.com",
  to: "Ada <ada@example.org>",
  subject: "Your diagnosis",
  bodyHtml: "<p>Private</p>",
  metadata: { patient: 42 },
  attachments: [
    { name: "report.txt", contentType: "text/plain", contentBlob: Buffer.from("private bytes").toString("base64") },
  ],
};

describe("eraseMessage", () => {
  it("erases a delivered message: DELETED, content and stored MIME gone, metadata and timeline kept; the API shows it", async () => {
    const ws = await createTestWorkspace();
    const { message } = await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body });
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    expect((await readMessageState(message.id)).inbox).toHaveLength(1);

    await eraseMessage({ workspaceId: ws.workspace.id, messageId: message.id });
    const state = await readMessageState(message.id);
    expect(state.message).toMatchObject({
      status: "DELETED",
      subject: "",
      bodyHtml: "",
      bodyText: "",
      variables: {},
      metadata: { patient: 42 },
      to: ["Ada <ada@example.org>"],
    });
    expect(state.message.attachments).toEqual([{ name: "report.txt", contentType: "text/plain", size: 13 }]);
    expect(state.message.sentAt).toBeInstanceOf(Date);
    expect(state.message.contentPurgedAt).toBeInstanceOf(Date);
    expect(state.inbox).toHaveLength(0);
    expect(state.codes).toEqual([
      "EMAIL_MESSAGE_CREATED",
      "EMAIL_MESSAGE_RENDERED",
      "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
      "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
      "EMAIL_MESSAGE_ERASED",
    ]);
    expect(state.events.map((event) => event.message).join("\n")).not.toContain("diagnosis");

    const api = await callRoute(getMessage, `/api/v1/email_messages/${message.id}`, {
      authorization: ws.authorization,
      params: { id: message.id },
    });
    expect(api.status).toBe(200);
    expect(api.json.data).toMatchObject({
      status: "DELETED",
      subject: null,
      variables: {},
      metadata: { patient: 42 },
      to: ["Ada <ada@example.org>"],
    });
    const events = await callRoute(getEvents, `/api/v1/email_messages/${message.id}/events`, {
      authorization: ws.authorization,
      params: { id: message.id },
    });
    expect(events.status).toBe(200);
    expect(events.json.meta.count).toBe(5);

    // Erasing again changes nothing.
    await eraseMessage({ workspaceId: ws.workspace.id, messageId: message.id });
    expect((await readMessageState(message.id)).codes).toHaveLength(5);
  });

  it("a PENDING message erased is never delivered", async () => {
    const ws = await createTestWorkspace();
    const { message } = await sendMessage({ workspaceId: ws.workspace.id, sandbox: false, body });
    await eraseMessage({ workspaceId: ws.workspace.id, messageId: message.id });
    await deliverMessage({ workspaceId: ws.workspace.id, messageId: message.id }, { attempt: 0 });
    const state = await readMessageState(message.id);
    expect(state.message.status).toBe("DELETED");
    expect(state.message.sentAt).toBeNull();
    expect(state.inbox).toHaveLength(0);
    expect(state.events.at(-1)!.message).toMatch(/^Erased by an admin before delivery: it will not be sent\./);
  });

  it("an unknown id, a malformed id and another workspace's message are all NOT_FOUND, and change nothing", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const { message } = await sendMessage({ workspaceId: other.workspace.id, sandbox: true, body });
    for (const messageId of [newId("message"), "not-an-id", message.id]) {
      await expect(eraseMessage({ workspaceId: ws.workspace.id, messageId })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
    }
    expect((await readMessageState(message.id)).message).toMatchObject({
      status: "SUCCEEDED",
      subject: "Your diagnosis",
    });
  });
});
