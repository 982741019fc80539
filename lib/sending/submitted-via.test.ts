import { describe, expect, it } from "vitest";
import { getMessageDetail } from "@/lib/domain/messages/get-message-detail";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { resendMessage } from "./resend-message";

const raw = { from: "Acme <hello@example.com>", to: "Ada <ada@example.org>", subject: "Hi", bodyHtml: "<p>Hi</p>" };

/** What the message page reads: the Waypoint source and the door beside it (docs/dashboard.md#how-it-was-sent). */
async function doorOf(workspaceId: string, id: string) {
  const { source, submittedVia } = (await getMessageDetail(workspaceId, id))!.message;
  return { source, submittedVia };
}

describe("the door a message came in by", () => {
  it("is api for a send, a batch and a resend through the API, dashboard for the Resend button", async () => {
    const ws = await createTestWorkspace();
    const sent = await callApi("/v1/email_messages", { authorization: ws.authorization, body: raw });
    expect(sent.status).toBe(201);
    const id: string = sent.json.data.id;
    expect(await doorOf(ws.workspace.id, id)).toEqual({ source: "API", submittedVia: "api" });

    const batch = await callApi("/v1/batches", {
      authorization: ws.authorization,
      body: { emailMessages: [raw] },
    });
    expect(batch.status, JSON.stringify(batch.json)).toBe(201);
    const batched: string = batch.json.data.emailMessageIds[0];
    expect(await doorOf(ws.workspace.id, batched)).toEqual({ source: "BATCH", submittedVia: "api" });

    const resent = await callApi(`/v1/email_messages/${id}/resend`, {
      method: "POST",
      authorization: ws.authorization,
    });
    expect(resent.status).toBe(201);
    expect(await doorOf(ws.workspace.id, resent.json.data.id)).toEqual({ source: "API", submittedVia: "api" });

    const fromButton = await resendMessage({ workspaceId: ws.workspace.id, messageId: id, submittedVia: "dashboard" });
    expect(await doorOf(ws.workspace.id, fromButton.message.id)).toEqual({ source: "API", submittedVia: "dashboard" });
  });

  it("stays out of the API's EmailMessage, which keeps Waypoint's shape", async () => {
    const ws = await createTestWorkspace();
    const sent = await callApi("/v1/email_messages", { authorization: ws.authorization, body: raw });
    expect(sent.json.data.source).toBe("API");
    expect(sent.json.data).not.toHaveProperty("submittedVia");
  });
});
