/**
 * Calls a route with a real Request. A path of the public API or the provider webhooks goes through
 * the one router (app/api/routes.ts), as every door does, when it reaches the handler the test names
 * (`null`: whichever it reaches, e.g. for a 404 or a 405). A handler named with a path it is not
 * mounted at (a test looping over handlers with one path) and other routes (health, uploads,
 * tracking) are called directly, with `params`, as Next.js would.
 */
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface CallOptions {
  method?: string;
  authorization?: string | null;
  body?: unknown;
  /** Sent as it is: a string, or bytes (which need not be valid UTF-8). */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
  params?: Record<string, string>;
}

export async function callRoute(handler: unknown, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.authorization) headers.authorization = options.authorization;
  let body: string | Uint8Array<ArrayBuffer> | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const request = new Request(`http://localhost:3000${path}`, {
    method: options.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
  const response = await answer(handler, request, options.params);
  const text = await response.text();
  // Tests read arbitrary response shapes; typing each one would add noise, not safety.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** callRoute through the router, whichever handler it reaches. */
export function callApi(path: string, options: CallOptions = {}) {
  return callRoute(null, path, options);
}

async function answer(
  handler: unknown,
  request: Request,
  params: Record<string, string> | undefined,
): Promise<Response> {
  const { apiRouter, providerEventsRouter, mcpRouter } = await import("@/app/api/routes");
  const pathname = new URL(request.url).pathname;
  const router = [apiRouter, providerEventsRouter, mcpRouter].find((candidate) => candidate.owns(pathname));
  if (router && (handler === null || router.resolve(request.method, pathname)?.handler === handler))
    return router(request);
  if (handler === null) throw new Error(`callApi: ${request.method} ${pathname} is not a path of the route table`);
  return (handler as Handler)(request, { params: Promise.resolve(params ?? {}) });
}
