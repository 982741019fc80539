import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { inboundMessageResource, threadResource } from "@/lib/entry/api/openapi/resources-inbound-messages";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { inboundReplyScenario } from "@/lib/testing/inbound-scenario";

describe("/v1/inbound_messages and /v1/threads", () => {
  it("lists, filters and reads a reply with the original it answers; the raw bytes as received", async () => {
    const { ws, original, reply } = await inboundReplyScenario();
    const page = await callApi("/v1/inbound_messages?originalMessageId=" + original, {
      authorization: ws.authorization,
    });
    expect(page.status).toBe(200);
    expect(page.json.data.map((item: { id: string }) => item.id)).toEqual([reply.id]);
    expect(page.json.data[0]).not.toHaveProperty("headers");
    const none = await callApi("/v1/inbound_messages?status=QUARANTINED", { authorization: ws.authorization });
    expect(none.json.data).toEqual([]);

    const one = await callApi(`/v1/inbound_messages/${reply.id}`, { authorization: ws.authorization });
    expect(one.status).toBe(200);
    expect(() => inboundMessageResource.strict().parse(one.json.data)).not.toThrow();
    expect(one.json.data.originalMessage).toMatchObject({
      id: original,
      metadata: { order: "42" },
      subject: "Your order",
    });
    expect(one.json.data.strippedText).toBe("Hello, a question.");

    const [file] = one.json.data.attachments;
    const download = await callApi(new URL(file.url).pathname + new URL(file.url).search, { authorization: null });
    expect(download.status).toBe(200);
    expect(download.text).toBe("%PDF-1.4 test");
    const forged = await callApi(new URL(file.url).pathname + "?expires=9999999999&signature=00", {
      authorization: null,
    });
    expect(forged.status).toBe(401);

    const raw = await callApi(`/v1/inbound_messages/${reply.id}/raw`, { authorization: ws.authorization });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toBe("message/rfc822");
    expect(raw.text).toContain("Subject: Re: Your order");
  });

  it("lists a thread's sent and received messages, and a reply answers in it with In-Reply-To and References", async () => {
    const { ws, original, reply, threadId } = await inboundReplyScenario();
    const answered = await callApi(`/v1/inbound_messages/${reply.id}/reply`, {
      authorization: ws.authorization,
      body: { from: "Acme <hello@example.com>", bodyHtml: "<p>Thanks, Ada.</p>" },
    });
    expect(answered.status, JSON.stringify(answered.json)).toBe(201);
    const answer = answered.json.data;
    expect(answer).toMatchObject({ subject: "Re: Your order", to: ["ada+replies@example.org"] });
    const db = await getDb();
    const [row] = await db
      .select({ threadId: emailMessages.threadId, headers: emailMessages.headers })
      .from(emailMessages)
      .where(and(eq(emailMessages.workspaceId, ws.workspace.id), eq(emailMessages.id, answer.id)));
    expect(row).toEqual({
      threadId,
      headers: {
        "in-reply-to": "<reply-1@mail.example.org>",
        references: `<${original}@example.com> <reply-1@mail.example.org>`,
      },
    });

    const thread = await callApi(`/v1/threads/${threadId}`, { authorization: ws.authorization });
    expect(thread.status).toBe(200);
    expect(() => threadResource.strict().parse(thread.json.data)).not.toThrow();
    expect(thread.json.data.messages.map((m: { direction: string; id: string }) => [m.direction, m.id])).toEqual([
      ["outbound", original],
      ["inbound", reply.id],
      ["outbound", answer.id],
    ]);
    const again = await callApi(`/v1/threads/${threadId}/reply`, {
      authorization: ws.authorization,
      body: { from: "Acme <hello@example.com>", bodyHtml: "<p>One more thing.</p>" },
    });
    expect(again.status).toBe(201);
    expect(again.json.data.subject).toBe("Re: Your order");
  });

  it("401 without a key, 404 for another workspace's ids, 400 naming the field", async () => {
    const { ws, reply, threadId } = await inboundReplyScenario();
    const other = await createTestWorkspace();
    expect((await callApi(`/v1/inbound_messages/${reply.id}`, { authorization: null })).status).toBe(401);
    for (const path of [
      `/v1/inbound_messages/${reply.id}`,
      `/v1/inbound_messages/${reply.id}/raw`,
      `/v1/threads/${threadId}`,
    ]) {
      const answer = await callApi(path, { authorization: other.authorization });
      expect(answer.status, path).toBe(404);
    }
    const foreignReply = await callApi(`/v1/inbound_messages/${reply.id}/reply`, {
      authorization: other.authorization,
      body: { from: "Acme <hello@example.com>", bodyHtml: "<p>x</p>" },
    });
    expect(foreignReply.status, JSON.stringify(foreignReply.json)).toBe(404);
    const bad = await callApi("/v1/inbound_messages?status=LOST", { authorization: other.authorization });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param ?? bad.json.param ?? JSON.stringify(bad.json)).toContain("status");
    const badBody = await callApi(`/v1/inbound_messages/${reply.id}/reply`, {
      authorization: ws.authorization,
      body: ["not", "an", "object"],
    });
    expect(badBody.status).toBe(400);
  });
});
