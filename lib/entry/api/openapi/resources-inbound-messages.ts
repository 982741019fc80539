import { z } from "zod";
import { INBOUND_MESSAGE_STATUSES } from "@/db/schema";

/** Received mail and threads (docs/inbound.md), checked against their serializers like the others. */
const timestamp = z.iso.datetime().describe("ISO 8601 UTC with milliseconds.");
const address = z.object({ address: z.string(), name: z.string().nullable() });
const verdict = z.string().describe("pass, fail, softfail, neutral, none, temperror, permerror or policy.");

export const originalMessageResource = z.object({
  id: z.string().describe('The sent message it answers: an "em_" id.'),
  subject: z.string(),
  templateId: z.string().nullable(),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  workflowRunId: z.string().nullable(),
  to: z.array(z.string()),
  contact: z.object({ id: z.string(), email: z.string() }).nullable(),
});

export const inboundMessageResource = z.object({
  id: z.string().describe('An "inm_" prefix and 16 base62 characters.'),
  type: z.literal("InboundMessage"),
  createdAt: timestamp.describe("When it was received."),
  status: z.enum(INBOUND_MESSAGE_STATUSES).describe("QUARANTINED: stored, but its route's actions did not run."),
  quarantineReason: z.string().nullable(),
  routeId: z.string().nullable(),
  inboundDomainId: z.string().nullable(),
  threadId: z.string().nullable(),
  recipient: z.string().describe("The address the route matched."),
  mailboxHash: z.string().nullable().describe("The part after + for a support+{hash}@ route."),
  envelope: z.object({
    from: z.string(),
    to: z.array(z.string()),
    remoteIp: z.string().nullable(),
    helo: z.string().nullable(),
  }),
  from: address.nullable(),
  to: z.array(address),
  cc: z.array(address),
  replyTo: z.array(address),
  subject: z.string(),
  date: timestamp.nullable().describe("Its Date header."),
  messageId: z.string().nullable(),
  inReplyTo: z.string().nullable(),
  references: z.array(z.string()),
  strippedText: z.string().nullable().describe("The reply without quoted text and signature."),
  strippedSignature: z.string().nullable(),
  text: z.string().nullable().optional().describe("GET by id only."),
  html: z.string().nullable().optional().describe("GET by id only."),
  headers: z
    .array(z.tuple([z.string(), z.string()]))
    .optional()
    .describe("GET by id only: [name, value] in order."),
  attachments: z.array(
    z.object({
      id: z.string(),
      filename: z.string(),
      contentType: z.string(),
      size: z.int(),
      contentId: z.string().nullable(),
      inline: z.boolean(),
      url: z.string().nullable().describe("GET by id: a signed download URL, valid for an hour."),
    }),
  ),
  sizeBytes: z.int(),
  verdicts: z.object({
    spf: verdict,
    dkim: verdict,
    dmarc: verdict,
    arc: verdict,
    spam: z.object({
      status: z.string().describe("not_checked (SPAMD_URL unset), ham, spam or error."),
      score: z.number().nullable(),
    }),
    details: z.record(z.string(), z.unknown()),
  }),
  actionResults: z.array(z.record(z.string(), z.unknown())),
  originalMessageId: z.string().nullable(),
  originalMessage: originalMessageResource.nullable(),
  contentPurgedAt: timestamp.nullable(),
});

export const threadResource = z.object({
  id: z.string().describe('A "thr_" prefix and 16 base62 characters.'),
  type: z.literal("Thread"),
  subject: z.string().describe("The normalised subject (no Re:/Fwd: prefixes, lower-cased)."),
  participants: z.array(z.string()),
  createdAt: timestamp,
  lastMessageAt: timestamp,
  messages: z.array(
    z.object({
      direction: z.enum(["inbound", "outbound"]),
      id: z.string().describe('"inm_" for received mail, "em_" for sent.'),
      at: timestamp,
      from: z.string(),
      to: z.string(),
      subject: z.string(),
      excerpt: z.string().nullable(),
    }),
  ),
});

export const threadSummaryResource = threadResource.omit({ messages: true });

export const inboundMessageErasedResource = z.object({
  id: z.string(),
  erased: z.literal(true),
  contentPurgedAt: timestamp.describe("When its content went (the first erase or retention purge)."),
});

export function inboundMessageSchemas(): Array<[string, z.ZodType, string]> {
  return [
    ["InboundMessage", inboundMessageResource, "A received mail, parsed, with its checks and the message it answers."],
    ["Thread", threadResource, "A conversation: received and sent messages, oldest first."],
    ["ThreadSummary", threadSummaryResource, "A conversation in a list, without its messages."],
    ["InboundMessageErased", inboundMessageErasedResource, "A received mail whose content was erased."],
  ];
}
