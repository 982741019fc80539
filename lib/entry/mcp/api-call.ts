import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { errorReply } from "@/lib/entry/api/respond";

/** The public API's router (app/api/routes.ts `apiRouter`), passed in: lib/ never imports app/. */
export type ApiDoor = (request: Request) => Promise<Response>;

export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  // The API's JSON of any shape; each tool reads the few fields it needs.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface ApiCallOptions {
  /** Query parameters: arrays repeat the name (`tag=a&tag=b`); undefined and null are left out. */
  query?: Record<string, unknown>;
  body?: unknown;
}

export type ApiCall = (method: string, path: string, options?: ApiCallOptions) => Promise<ApiAnswer>;

/** Passed on from the MCP request, so the API sees the caller as it would: the IP allow list, the audit log's IP. */
const FORWARDED = ["x-forwarded-for", "x-real-ip", "x-forwarded-proto", "x-forwarded-host", "x-request-id"];

/**
 * Calls the API in-process with the session's own credentials: every tool goes through the router and
 * `withApiKey`, so its validation, errors, scope check, rate limit, activity log and audit actor are the
 * API's own. The user agent says MCP, so the audit log tells an agent's change from a script's.
 */
export function apiCaller(api: ApiDoor, original: Request, authorization: string): ApiCall {
  const origin = new URL(original.url).origin;
  const userAgent = `${original.headers.get("user-agent") ?? "unknown client"} (MCP)`;
  return async (method, path, options = {}) => {
    const url = new URL(path, origin);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
    }
    const headers = new Headers({ authorization, "user-agent": userAgent });
    for (const name of FORWARDED) {
      const value = original.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers.set("content-type", "application/json");
    }
    const response = await api(new Request(url, { method, headers, body }));
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: parseJson(text) };
  };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The API's answer as a tool result: its JSON as text; an error is `isError` with the envelope and its status. */
export function toolResult(answer: ApiAnswer, notes: string[] = []): CallToolResult {
  if (answer.status >= 400) return errorResult(answer.status, answer.json ?? { error: { message: answer.text } });
  return {
    content: [
      { type: "text", text: answer.json === null ? answer.text : JSON.stringify(answer.json) },
      ...notes.map((text) => ({ type: "text" as const, text })),
    ],
  };
}

export function errorResult(status: number, envelope: unknown): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ status, ...(envelope as object) }) }] };
}

/** A refusal before the API is called (a path id missing), in the API's own envelope. */
export function refusalResult(error: unknown): CallToolResult {
  const reply = errorReply(error);
  return errorResult(reply.status, reply.body);
}

/** Results JSON of a tool that combines several answers: the first failure is the result. */
export function firstFailure(...answers: ApiAnswer[]): CallToolResult | null {
  const failed = answers.find((answer) => answer.status >= 400);
  return failed ? toolResult(failed) : null;
}

export const jsonResult = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
});
