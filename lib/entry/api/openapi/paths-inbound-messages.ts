import type { JsonObject } from "./components";
import { operation, pathId, queryParam, SEND_ERRORS } from "./operation";

const tag = "Inbound";
const messageId = pathId("inbound message", "inm_");
const threadId = pathId("thread", "thr_");
const filter = (name: string, description: string) => queryParam(name, { type: "string" }, description);

/** /v1/inbound_messages and /v1/threads (docs/inbound.md#reading-inbound-mail, #threads, #the-reply-api). */
export const inboundMessagePaths: Record<string, JsonObject> = {
  "/v1/inbound_messages": {
    get: operation({
      operationId: "listInboundMessages",
      scope: "inbound:read",
      summary: "List received mail, newest first",
      tag,
      parameters: [
        queryParam("limit", { type: "integer", minimum: 1, maximum: 50, default: 50 }, "Mails per page."),
        filter("cursor.after", "An id: the page after it (older)."),
        filter("cursor.before", "An id: the page before it (newer)."),
        filter("createdAt.gte", "Received at or after (ISO 8601); also createdAt.gt, .lt, .lte."),
        filter("routeId", "Only mail its route took."),
        filter("threadId", "Only mail of one thread."),
        filter("originalMessageId", "Only replies to one sent message."),
        filter("address", "The recipient or the From address."),
        filter("status", "RECEIVED or QUARANTINED."),
        filter("spf", "A verdict: pass, fail, none…"),
        filter("dkim", "A verdict."),
        filter("dmarc", "A verdict."),
        filter("spam", "not_checked, ham, spam or error."),
      ],
      success: [
        { status: "200", description: "One page of mail.", list: { meta: "MessageListMeta", item: "InboundMessage" } },
      ],
      errors: ["400"],
    }),
  },
  "/v1/inbound_messages/{id}": {
    get: operation({
      operationId: "getInboundMessage",
      scope: "inbound:read",
      summary: "Retrieve a received mail: every parsed field, the checks, the stripped reply and the original",
      tag,
      parameters: [messageId],
      success: [{ status: "200", description: "The mail.", data: "InboundMessage" }],
      errors: ["400", "404", "410"],
    }),
    delete: operation({
      operationId: "eraseInboundMessage",
      scope: "inbound:write",
      summary: "Erase a received mail's content: subject, bodies, headers, raw bytes and attachments (audited)",
      description:
        "The envelope, addresses, verdicts and the links to its thread and original stay. Erasing again answers the same.",
      tag,
      parameters: [messageId],
      success: [{ status: "200", description: "Erased.", data: "InboundMessageErased" }],
      errors: ["400", "404", "410"],
    }),
  },
  "/v1/inbound_messages/{id}/raw": {
    get: operation({
      operationId: "getInboundMessageRaw",
      scope: "inbound:read",
      summary: "The original RFC 5322 bytes (message/rfc822); 404 once erased or purged",
      tag,
      parameters: [messageId],
      success: [
        {
          status: "200",
          description: "The mail as received.",
          content: { "message/rfc822": { schema: { type: "string", format: "binary" } } },
        },
      ],
      errors: ["400", "404", "410"],
    }),
  },
  "/v1/inbound_messages/{id}/attachments/{attachmentId}": {
    get: operation({
      operationId: "downloadInboundAttachment",
      public: true,
      summary: "A received attachment, by the signed url GET /v1/inbound_messages/{id} gave (valid for an hour)",
      tag,
      parameters: [
        messageId,
        {
          name: "attachmentId",
          in: "path",
          required: true,
          description: "The attachment id (inatt_…).",
          schema: { type: "string" },
        },
        queryParam("expires", { type: "integer" }, "From the signed url."),
        queryParam("signature", { type: "string" }, "From the signed url."),
      ],
      success: [
        {
          status: "200",
          description: "The file, as a download.",
          content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
        },
      ],
      errors: ["401", "404"],
    }),
  },
  "/v1/inbound_messages/{id}/reply": {
    post: operation({
      operationId: "replyToInboundMessage",
      scope: "emails:send",
      summary: "Answer a received mail through the normal send path, in its thread",
      description:
        "A send body (from, text/html or templateId and variables, cc, metadata, tags); to defaults to the mail's Reply-To, else From; subject to Re: and its subject. In-Reply-To and References are set; the answer is the sent message, as POST /v1/email_messages gives it.",
      tag,
      parameters: [messageId],
      body: { schema: "SendEmailRequest" },
      success: [{ status: "201", description: "The reply, accepted.", data: "EmailMessage" }],
      errors: SEND_ERRORS,
    }),
  },
  "/v1/threads": {
    get: operation({
      operationId: "listThreads",
      scope: "inbound:read",
      summary: "List conversations, the newest activity first (each without its messages: GET /v1/threads/{id})",
      description:
        "Ordered by lastMessageAt, then id. A thread that receives mail while you page moves to the top, so a later page may repeat or skip it.",
      tag,
      parameters: [
        queryParam("limit", { type: "integer", minimum: 1, maximum: 50, default: 50 }, "Threads per page."),
        filter("cursor.after", "An id: the page after it (older)."),
        filter("cursor.before", "An id: the page before it (newer)."),
        filter("createdAt.gte", "Started at or after (ISO 8601); also createdAt.gt, .lt, .lte."),
        filter("address", "A participant's address."),
        filter("emailMessageId", "The thread of a sent message (em_…): the one its replies joined."),
      ],
      success: [
        {
          status: "200",
          description: "One page of threads.",
          list: { meta: "MessageListMeta", item: "ThreadSummary" },
        },
      ],
      errors: ["400"],
    }),
  },
  "/v1/threads/{id}": {
    get: operation({
      operationId: "getThread",
      scope: "inbound:read",
      summary: "A conversation: its received and sent messages, oldest first",
      tag,
      parameters: [threadId],
      success: [{ status: "200", description: "The thread.", data: "Thread" }],
      errors: ["400", "404", "410"],
    }),
  },
  "/v1/threads/{id}/reply": {
    post: operation({
      operationId: "replyToThread",
      scope: "emails:send",
      summary: "Answer the newest mail received in a thread",
      tag,
      parameters: [threadId],
      body: { schema: "SendEmailRequest" },
      success: [{ status: "201", description: "The reply, accepted.", data: "EmailMessage" }],
      errors: SEND_ERRORS,
    }),
  },
};
