import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { grants } from "@/lib/domain/api-keys/scopes.shared";
import { parseSingleAddress } from "@/lib/foundation/addresses/recipients.shared";
import { describeEvent } from "@/lib/records/timeline/event-labels.shared";
import { firstFailure, jsonResult, refusalResult, type ApiCall } from "./api-call";
import { inputSchemaOf, operationOf, requestOf, type McpTool, type ToolInput } from "./tool";

interface ApiEvent {
  createdAt: string;
  code: string;
  message: string;
}

interface ApiMessage {
  id: string;
  status: string;
  to: string[];
  cc: string[] | null;
  bcc: string[] | null;
}

type Read = { result: CallToolResult } | { message: ApiMessage; events: ApiEvent[]; total: number };

/** The message and its newest 50 events (the API's first page), oldest first. */
async function readMessage(input: ToolInput, api: ApiCall): Promise<Read> {
  let path: string;
  try {
    path = requestOf("/v1/email_messages/{id}", operationOf("GET", "/v1/email_messages/{id}"), input).path;
  } catch (error) {
    return { result: refusalResult(error) };
  }
  const [message, events] = await Promise.all([api("GET", path), api("GET", `${path}/events`)]);
  const failed = firstFailure(message, events);
  if (failed) return { result: failed };
  return { message: message.json.data, events: [...events.json.data].reverse(), total: events.json.meta.count };
}

/** One event as the dashboard's timeline says it: when, what (in words), and the detail recorded with it. */
const sentenceOf = (event: ApiEvent) =>
  `${event.createdAt} ${describeEvent(event.code, event.message).label}${event.message ? `: ${event.message}` : ""}`;

const olderEventsNote = (shown: number, total: number) =>
  total > shown ? [`The newest ${shown} of ${total} events; GET /v1/email_messages/{id}/events?page=2 has more.`] : [];

const messageInput = () => inputSchemaOf(operationOf("GET", "/v1/email_messages/{id}"));

export const getMessageTool: McpTool = {
  name: "get_message",
  title: "Get a message and its timeline",
  description:
    "GET /v1/email_messages/{id} with its events (GET /v1/email_messages/{id}/events): the message, and its delivery timeline " +
    "oldest first, each event a sentence (when, what happened in words, and what was recorded with it).",
  scope: "emails:read",
  readOnly: true,
  inputSchema: messageInput,
  run: async (input, { api }) => {
    const read = await readMessage(input, api);
    if ("result" in read) return read.result;
    return jsonResult({
      data: read.message,
      timeline: read.events.map(sentenceOf),
      notes: olderEventsNote(read.events.length, read.total),
    });
  },
};

/** The message's distinct recipient addresses (to, cc, bcc), lower-cased as suppressions store them. */
function recipientsOf(message: ApiMessage): string[] {
  const addresses = new Set<string>();
  for (const entry of [...message.to, ...(message.cc ?? []), ...(message.bcc ?? [])]) {
    try {
      addresses.add(parseSingleAddress(entry, "to", "EMAIL_MESSAGE_INVALID_RECIPIENTS_ERROR").address.toLowerCase());
    } catch {
      // A stored entry that no longer parses cannot be looked up; the others still are.
    }
  }
  return [...addresses];
}

/** GET /v1/suppressions?prefix=: the list is alphabetical, so an exact entry is the first of its prefix. */
async function suppressionOf(api: ApiCall, address: string) {
  const answer = await api("GET", "/v1/suppressions", { query: { prefix: address, limit: 1 } });
  if (answer.status >= 400) return { email: address, error: answer.json?.error ?? null };
  const [entry] = answer.json.data as Array<{
    email: string;
    reason: string;
    detail: string | null;
    createdAt: string;
  }>;
  return entry?.email === address ? entry : null;
}

export const explainFailureTool: McpTool = {
  name: "explain_failure",
  title: "Explain why a message failed",
  description:
    "Why did em_… bounce (or fail, or get suppressed)? The message's status, the problems its timeline records with what the " +
    "provider answered, and whether its recipients are on the suppression list (checked when the key has suppressions:write).",
  scope: "emails:read",
  readOnly: true,
  inputSchema: messageInput,
  run: async (input, { api, principal }) => {
    const read = await readMessage(input, api);
    if ("result" in read) return read.result;
    const { message, events } = read;
    const problems = events
      .filter((event) => describeEvent(event.code, event.message).category === "problem")
      .map((event) => ({
        at: event.createdAt,
        what: describeEvent(event.code, event.message).label,
        code: event.code,
        providerAnswer: event.message || null,
      }));
    const checked = grants(principal.scopes, "suppressions:write");
    const suppressions = checked
      ? (await Promise.all(recipientsOf(message).map((address) => suppressionOf(api, address)))).filter(Boolean)
      : null;
    const last = problems.at(-1);
    const summary = [
      `${message.id} is ${message.status}.`,
      last
        ? `Its last problem: ${last.what} at ${last.at}${last.providerAnswer ? `: ${last.providerAnswer}` : "."}`
        : "Its timeline records no problem.",
      ...(suppressions ?? []).map((entry) =>
        entry && "reason" in entry ? `${entry.email} is suppressed (${entry.reason}, since ${entry.createdAt}).` : "",
      ),
      checked ? "" : "Suppressions not checked: this API key lacks the suppressions:write scope.",
    ].filter(Boolean);
    return jsonResult({
      summary: summary.join(" "),
      status: message.status,
      problems,
      suppressions,
      timeline: events.map(sentenceOf),
      notes: olderEventsNote(events.length, read.total),
    });
  },
};
