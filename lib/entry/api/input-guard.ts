import { AppError, invalidParameter } from "@/lib/foundation/errors";

/**
 * Hostile input refused at the edge, once, for every endpoint (docs/api.md#hostile-input), so no
 * use case has to think about it:
 * - NUL (U+0000): PostgreSQL refuses it in text and jsonb, so it would surface as a 500 deep in a query.
 * - Nesting deeper than MAX_BODY_DEPTH: the request hash, serializers and renderers recurse, and
 *   5,000 levels overflow the stack. JSON.parse itself copes, so the check runs on its result.
 */
export const MAX_BODY_DEPTH = 64;

interface Pending {
  value: unknown;
  depth: number;
  parent: Pending | null;
  key: string | number | null;
}

/**
 * Walks a parsed JSON body once, iteratively (a recursive walk would overflow on the very input it
 * refuses), in document order, and throws for the first string or key holding NUL or the first
 * object or array nested deeper than MAX_BODY_DEPTH levels below the top.
 */
export function assertSafeJson(body: unknown): void {
  const stack: Pending[] = [{ value: body, depth: 0, parent: null, key: null }];
  while (stack.length > 0) {
    const node = stack.pop() as Pending;
    const { value } = node;
    if (typeof value === "string") {
      if (value.includes("\u0000")) throw nulRefused(pathOf(node), "value");
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (node.depth > MAX_BODY_DEPTH) {
      const param = pathOf(node);
      const field = param.split(/[.[]/)[0] || "body";
      throw invalidParameter(
        param,
        `Invalid ${field}: the request body is nested deeper than ${MAX_BODY_DEPTH} levels; flatten it.`,
      );
    }
    const children: Pending[] = [];
    if (Array.isArray(value)) {
      value.forEach((item, index) => children.push({ value: item, depth: node.depth + 1, parent: node, key: index }));
    } else {
      for (const [key, item] of Object.entries(value)) {
        const child = { value: item, depth: node.depth + 1, parent: node, key };
        if (key.includes("\u0000")) throw nulRefused(pathOf(child), "key");
        children.push(child);
      }
    }
    // Reversed onto the stack, so the first problem in document order is the one named.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

/**
 * Route parameters (`:id`) and query parameters, before any query runs: Next.js decodes `%00` in
 * both, and the id or filter would reach PostgreSQL as text.
 */
export function assertSafeParams(params: unknown, query: URLSearchParams): void {
  if (params && typeof params === "object") {
    for (const [name, value] of Object.entries(params)) {
      const values = Array.isArray(value) ? value : [value];
      if (values.some((inner) => typeof inner === "string" && inner.includes("\u0000")))
        throw nulRefused(visible(name), "path parameter");
    }
  }
  for (const [name, value] of query) {
    if (name.includes("\u0000") || value.includes("\u0000")) throw nulRefused(visible(name), "query parameter");
  }
}

function nulRefused(param: string, where: string): AppError {
  return invalidParameter(
    param,
    `Invalid ${param}: the ${where} contains a NUL character (\\u0000), which is never accepted.`,
  );
}

/** `emailMessages[2].subject`; a NUL inside a key is shown as the six characters `\u0000`, never sent back raw. */
function pathOf(node: Pending): string {
  const parts: Array<string | number> = [];
  for (let current: Pending | null = node; current && current.key !== null; current = current.parent)
    parts.push(current.key);
  let out = "";
  for (const part of parts.reverse()) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${visible(part)}` : visible(part);
  }
  return out || "body";
}

function visible(text: string): string {
  return text.replaceAll("\u0000", "\\u0000");
}
