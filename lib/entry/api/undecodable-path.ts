import { AppError } from "@/lib/foundation/errors";
import { errorReply } from "./respond";

/**
 * The first segment of a raw URL path that `decodeURIComponent` refuses (`%zz`, overlong UTF-8 like
 * `%C0%AE`, a lone surrogate like `%ED%A0%80`, `%FF`), or null when every segment decodes.
 */
export function undecodableSegment(pathname: string): string | null {
  if (!pathname.includes("%")) return null;
  for (const segment of pathname.split("/")) {
    if (!segment.includes("%")) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  return null;
}

const JSON_PATH = /^\/(api|v1)(\/|$)/;
const PAGE =
  '<!doctype html><meta charset="utf-8"><title>Bad request</title><h1>Bad request</h1><p>This address is not valid: part of it is not valid percent-encoded UTF-8. Check the link.</p>';

export interface UndecodablePathAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * The one answer to an undecodable path (Next.js would fail decoding route params with an unlogged
 * plain-text 500): 400 in the JSON envelope naming `path` under /api and /v1, a plain page elsewhere.
 * The production server, the API router and proxy.ts (dashboard pages under `next dev`) all use it.
 */
export function undecodablePathAnswer(pathname: string): UndecodablePathAnswer | null {
  const segment = undecodableSegment(pathname);
  if (segment === null) return null;
  if (!JSON_PATH.test(pathname)) return { status: 400, contentType: "text/html; charset=utf-8", body: PAGE };
  const message = `The URL path segment "${segment}" is not valid percent-encoded UTF-8.`;
  const reply = errorReply(new AppError("EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", message, { param: "path" }));
  return { status: reply.status, contentType: "application/json; charset=utf-8", body: JSON.stringify(reply.body) };
}

export function undecodablePathResponse(answer: UndecodablePathAnswer): Response {
  return new Response(answer.body, {
    status: answer.status,
    headers: { "content-type": answer.contentType, "cache-control": "no-store" },
  });
}
