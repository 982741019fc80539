import "server-only";
import { AppError } from "@/lib/foundation/errors";
import { log } from "@/lib/foundation/log";
import { contextOfHeaders, inSpan, markSpanFailed, setSpanAttributes, SpanKind } from "@/lib/foundation/tracing";
import { errorReply, jsonResponse } from "./respond";
import { undecodablePathAnswer, undecodablePathResponse } from "./undecodable-path";

export type RouteParams = Record<string, string>;
/** Each handler names its own params' shape; the router gives it the pattern's params. */
export type RouteHandler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;
export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];
/** A handlers module: one function per method it serves; every other method answers 405. */
export type RouteModule = Partial<Record<RouteMethod, RouteHandler>>;
/** `[pattern, module]`: segments are literal, or `:name` for one decoded path segment. */
export type RouteEntry = readonly [pattern: string, module: RouteModule];

export interface RouterOptions {
  /** Path prefixes the patterns are relative to, e.g. `/api/v1` and `/v1`. */
  bases: readonly string[];
  routes: readonly RouteEntry[];
  /** Answers a path under a base that no pattern matches. */
  notFound: (request: Request) => Promise<Response>;
}

/** Answers a request; `owns` says whether a path is under one of its bases, `resolve` which handler a request reaches. */
export type Router = ((request: Request) => Promise<Response>) & {
  owns(pathname: string): boolean;
  resolve(method: string, pathname: string): { handler: RouteHandler | undefined; params: RouteParams } | null;
};

interface CompiledRoute {
  pattern: string;
  segments: Array<{ literal: string } | { param: string }>;
  module: RouteModule;
  allow: string;
}

/**
 * The one router of the public API and the provider webhooks: `next dev`, the tests and the
 * production server all call it (docs/architecture.md#routing). Literal segments win over
 * parameters, so `/templates/validate` is never `/templates/:id`.
 */
export function createRouter(options: RouterOptions): Router {
  const routes = compile(options.routes);
  const bases = [...options.bases].sort((a, b) => b.length - a.length);
  const baseOf = (pathname: string) => bases.find((base) => pathname === base || pathname.startsWith(`${base}/`));
  const router = async (request: Request): Promise<Response> => {
    const pathname = pathOf(request.url);
    const base = baseOf(pathname);
    if (base === undefined) return options.notFound(request);
    const refused = refuseUndecodable(request.method, pathname);
    if (refused) return refused;
    const match = matchRoute(routes, pathname.slice(base.length));
    if (!match) return options.notFound(request);
    return traced(`${base}${match.route.pattern}`, request, () => dispatch(match.route, match.params, request));
  };
  const resolve = (method: string, pathname: string) => {
    const base = baseOf(pathname);
    const match = base === undefined ? null : matchRoute(routes, pathname.slice(base.length));
    return match && { handler: match.route.module[method as RouteMethod], params: match.params };
  };
  return Object.assign(router, { owns: (pathname: string) => baseOf(pathname) !== undefined, resolve });
}

/**
 * The request's server span (docs/observability.md#spans), continuing a caller's `traceparent`: named by its route
 * template, never its path, and carrying no header, body, address or secret.
 */
function traced(route: string, request: Request, answer: () => Promise<Response>): Promise<Response> {
  const attributes = { "http.request.method": request.method, "http.route": route };
  const options = { kind: SpanKind.SERVER, attributes, parentContext: contextOfHeaders(request.headers) };
  return inSpan(`${request.method} ${route}`, options, async () => {
    const response = await answer();
    setSpanAttributes({ "http.response.status_code": response.status });
    if (response.status >= 500) markSpanFailed(`answered ${response.status}`);
    return response;
  });
}

async function dispatch(route: CompiledRoute, params: RouteParams, request: Request): Promise<Response> {
  const method = request.method === "HEAD" ? "GET" : request.method;
  if (request.method === "OPTIONS")
    return new Response(null, { status: 204, headers: { allow: `${route.allow}, HEAD, OPTIONS` } });
  const handler = route.module[method as RouteMethod];
  if (!handler) return methodNotAllowed(route.allow);
  try {
    const response = await handler(request, { params: Promise.resolve(params) as Promise<never> });
    return request.method === "HEAD" ? new Response(null, response) : response;
  } catch (error) {
    // Handlers answer every failure themselves; reaching here is a bug, answered in the envelope.
    log.error("route handler threw", { method: request.method, path: pathOf(request.url), error: String(error) });
    return jsonResponse(errorReply(error));
  }
}

/** Answers a known path's other methods: 405 with Allow (docs/api.md#decided-errors). */
export function methodNotAllowed(allow: string): Response {
  const reply = errorReply(new AppError("METHOD_NOT_ALLOWED", `This path accepts ${allow} only.`));
  return jsonResponse({ ...reply, headers: { ...reply.headers, allow } });
}

function compile(entries: readonly RouteEntry[]): CompiledRoute[] {
  const routes = entries.map(([pattern, module]) => {
    const segments = pattern
      .split("/")
      .slice(1)
      .map((part) => (part.startsWith(":") ? { param: part.slice(1) } : { literal: part }));
    const methods = ROUTE_METHODS.filter((method) => typeof module[method] === "function");
    if (methods.length === 0) throw new Error(`Route ${pattern}: its module exports no handler`);
    return { pattern, segments, module, allow: methods.join(", ") };
  });
  const shapes = new Set<string>();
  for (const route of routes) {
    const shape = route.segments.map((s) => ("literal" in s ? s.literal : ":")).join("/");
    if (shapes.has(shape)) throw new Error(`Route ${route.pattern}: another route has the same shape`);
    shapes.add(shape);
  }
  return routes;
}

function matchRoute(routes: CompiledRoute[], path: string): { route: CompiledRoute; params: RouteParams } | null {
  const parts = path.split("/").slice(1);
  let best: { route: CompiledRoute; params: RouteParams; literals: string } | null = null;
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: RouteParams = {};
    let literals = "";
    let matched = true;
    for (let i = 0; i < parts.length && matched; i++) {
      const segment = route.segments[i];
      if ("literal" in segment) {
        matched = segment.literal === parts[i];
        literals += "1";
      } else {
        matched = parts[i] !== "";
        if (matched) params[segment.param] = decodeURIComponent(parts[i]);
        literals += "0";
      }
    }
    // The earliest literal segment wins: compare which positions are literal, left to right.
    if (matched && (!best || literals > best.literals)) best = { route, params, literals };
  }
  return best && { route: best.route, params: best.params };
}

function refuseUndecodable(method: string, pathname: string): Response | null {
  const answer = undecodablePathAnswer(pathname);
  if (answer === null) return null;
  log.warn("undecodable api path", { method, path: pathname });
  return undecodablePathResponse(answer);
}

function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  return end === -1 ? url.slice(start) : url.slice(start, end);
}
