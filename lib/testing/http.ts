/** Calls a real route handler with a real Request, as Next.js would. */
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
  const request = new Request(`http://localhost:3000${path}`, { method: options.method ?? (body ? "POST" : "GET"), headers, body });
  const response = await (handler as Handler)(request, { params: Promise.resolve(options.params ?? {}) });
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
