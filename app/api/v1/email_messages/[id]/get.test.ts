import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages } from "@/db/schema";
import { getMessageOrThrow } from "@/lib/domain/messages/get-message-or-throw";
import { serializeMessage } from "@/lib/domain/messages/serialize";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { callRoute } from "@/lib/testing/http";
import { GET } from "./handlers";

describe("GET /v1/email_messages/:id", () => {
  it("answers every field of the message, as serialized from its whole row, and a 404 for another workspace's id", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const sentAt = new Date(Date.UTC(2026, 10, 27, 9, 30, 1, 7));
    const id = await insertTestMessage(ws.workspace.id, {
      status: "SUCCEEDED",
      cc: ["Bea <bea@example.org>"],
      replyTo: "replies@example.com",
      variables: { name: "Ada", items: [1, 2] },
      metadata: { order: "7" },
      referenceId: "ref-1",
      metaId: "order-7",
      sentAt,
      deliveredAt: new Date(sentAt.getTime() + 1500),
      scheduledAt: new Date(sentAt.getTime() - 60_000),
    });
    await (await getDb()).update(emailMessages).set({ processedAt: sentAt }).where(eq(emailMessages.id, id));

    const answer = await callRoute(GET, `/api/v1/email_messages/${id}`, {
      authorization: ws.authorization,
      params: { id },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual(
      JSON.parse(JSON.stringify(serializeMessage(await getMessageOrThrow(ws.workspace.id, id)))),
    );
    expect(answer.json.data).toMatchObject({
      id,
      sentAt: "2026-11-27T09:30:01.007Z",
      deliveredAt: "2026-11-27T09:30:02.507Z",
      variables: { name: "Ada", items: [1, 2] },
    });
    expect(Object.keys(answer.json.data)).not.toContain("bodyHtml");

    const theirs = await callRoute(GET, `/api/v1/email_messages/${id}`, {
      authorization: other.authorization,
      params: { id },
    });
    expect(theirs.status).toBe(404);
    expect(theirs.json.error).toMatchObject({ code: "NOT_FOUND", param: "id" });
  });
});
