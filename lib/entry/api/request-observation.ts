import "server-only";
import { randomUUID } from "node:crypto";
import { metrics } from "@/lib/foundation/metrics/metrics";

/** An incoming X-Request-Id is kept only when it cannot smuggle anything into logs or headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's id: the caller's X-Request-Id when sane (a proxy's or client's, for correlation), else a new one. */
export function requestIdOf(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Counts the request and observes its latency under its route template (/api/v1/email_messages/:id),
 * never its path: ids in labels would make one time series per message.
 */
export async function observeRequest(
  request: Request,
  params: Promise<unknown> | undefined,
  status: number,
  startedMs: number,
): Promise<void> {
  // Next.js gives no params to a static route when served by a custom server (server/server.mjs).
  const route = routeTemplate(new URL(request.url).pathname, await Promise.resolve(params).catch(() => ({})));
  const { httpRequests, httpDuration } = metrics();
  httpRequests.inc({ route, method: request.method, status: String(status) });
  httpDuration.observe({ route, method: request.method }, (performance.now() - startedMs) / 1000);
}

/** Each path segment that is a route parameter's value becomes `:name`. */
export function routeTemplate(pathname: string, params: unknown): string {
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries((params ?? {}) as Record<string, unknown>)) {
    for (const segment of Array.isArray(value) ? value : [value])
      if (typeof segment === "string") names.set(segment, name);
  }
  return pathname
    .split("/")
    .map((segment) => {
      const name = names.get(safeDecode(segment));
      return name ? `:${name}` : segment;
    })
    .join("/");
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
