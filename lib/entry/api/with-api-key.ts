import "server-only";
import { recordActivity } from "@/lib/records/activity/record-activity";
import { assertScope, authenticateApiKey, type ApiPrincipal } from "@/lib/domain/api-keys/authenticate-api-key";
import type { ScopeNeed } from "@/lib/domain/api-keys/scopes.shared";
import { clientFromHeaders } from "@/lib/domain/tracking/client-info";
import { AppError } from "@/lib/foundation/errors";
import { withLogFields } from "@/lib/foundation/log";
import { setSpanAttributes } from "@/lib/foundation/tracing";
import { assertSafeParams } from "./input-guard";
import { consumeRateLimit, withRateLimitHeaders } from "./rate-limit";
import { MB, readJsonBody } from "./read-json";
import { observeRequest, requestIdOf } from "./request-observation";
import { errorReply, jsonResponse, type ApiReply } from "./respond";

export interface ApiContext<P> {
  principal: ApiPrincipal;
  request: Request;
  url: URL;
  params: P;
  body: unknown;
}

export interface ApiOptions {
  /**
   * The scope a key needs (docs/api.md#scopes; `full` grants every scope), or alternatives of which any one
   * will do (the sandbox's sends: emails:send or emails:sandbox). Required: every route names one.
   */
  scope: ScopeNeed;
  /** "json": a JSON object is required; "optional": may be empty; "none": not read. */
  body?: "json" | "optional" | "none";
  maxBytes?: number;
  /** Recorded on the activity log entry (sandbox endpoints). */
  sandbox?: boolean;
}

/** Next.js leaves `params` out for a static route when served by a custom server (server/server.mjs). */
type RouteContext<P> = { params?: Promise<P> };

/**
 * The one route wrapper (docs/architecture.md#rules-that-carry-weight, rule 1): authenticate (key, expiry, IP allow list) →
 * rate limit (per key) → the scope the route names → read the
 * body (size-capped; NUL and deep nesting refused in ids, queries and bodies) → call the handler (parse, use case, serialize) → turn any error into the
 * envelope → log the request to the workspace's activity log. Deliberately small: no special
 * cases live here. Every log line written while it runs carries the request's id, which the response
 * returns as X-Request-Id; the request is counted and timed for /api/metrics.
 */
export function withApiKey<P = Record<string, never>>(
  options: ApiOptions,
  handler: (context: ApiContext<P>) => Promise<ApiReply | Response>,
) {
  return async (request: Request, route: RouteContext<P>): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    setSpanAttributes({ "postwerk.request_id": requestId });
    const response = await withLogFields({ requestId }, () =>
      handle(options, handler, request, route, started, requestId),
    );
    await observeRequest(request, route.params, response.status, started);
    return response;
  };
}

async function handle<P>(
  options: ApiOptions,
  handler: (context: ApiContext<P>) => Promise<ApiReply | Response>,
  request: Request,
  route: RouteContext<P>,
  started: number,
  requestId: string,
): Promise<Response> {
  let principal: ApiPrincipal | null = null;
  let body: unknown;
  let reply: ApiReply;
  let passthrough: Response | null = null;
  const rateLimit: Record<string, string> = {};
  try {
    principal = await authenticateApiKey(request.headers.get("authorization"), { ip: clientIp(request) });
    setSpanAttributes({ "postwerk.workspace_id": principal.workspaceId, "postwerk.api_key_id": principal.apiKeyId });
    await consumeRateLimit(principal.apiKeyId, rateLimit); // fills RateLimit-*; over the limit throws RATE_LIMITED
    assertScope(principal, options.scope);
    const params = ((await route.params) ?? {}) as P;
    const url = new URL(request.url);
    assertSafeParams(params, url.searchParams); // before any query sees an id or a filter
    if (options.body !== "none" && request.method !== "GET") {
      body = await readJsonBody(request, options.maxBytes ?? 10 * MB, options.body === "optional");
    }
    const result = await handler({ principal, request, url, params, body });
    if (result instanceof Response) {
      passthrough = result;
      reply = { status: result.status, body: null };
    } else {
      reply = result;
    }
  } catch (error) {
    reply = errorReply(error);
  }
  if (principal) {
    const data = (reply.body as { data?: { id?: unknown } } | null)?.data;
    const failure = (reply.body as { error?: { code?: string } } | null)?.error;
    recordActivity({
      workspaceId: principal.workspaceId,
      apiKeyId: principal.apiKeyId,
      method: request.method,
      path: new URL(request.url).pathname,
      status: reply.status,
      durationMs: Math.round(performance.now() - started),
      sandbox: options.sandbox ?? false,
      errorCode: failure?.code ?? null,
      resourceId: typeof data?.id === "string" ? data.id : null,
      requestBody: body ?? null,
      responseBody: "logged" in reply ? reply.logged : reply.body,
    });
  }
  // Always a fresh Response (withRateLimitHeaders copies it), so the header can be set on a passthrough too.
  return withRateLimitHeaders(passthrough ?? jsonResponse(reply), { ...rateLimit, "x-request-id": requestId });
}

/** Any path under /v1 that does not exist. */
export async function unknownPath(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  return jsonResponse(
    errorReply(
      new AppError("NOT_FOUND", `There is no endpoint at ${request.method} ${path}. See /api/v1/openapi.json.`),
    ),
  );
}

/** The caller's address as the IP allow list and the audit log see it: X-Forwarded-For's first entry, else X-Real-IP (behind the proxy a deployment needs; docs/self-hosting.md). */
export function clientIp(request: Request): string | null {
  const { ip } = clientFromHeaders(request.headers);
  return ip === "unknown" ? null : ip;
}
