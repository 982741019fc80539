import { NextResponse, type NextRequest } from "next/server";
import { errorReply, jsonResponse } from "@/lib/entry/api/respond";
import { undecodableSegment } from "@/lib/entry/api/undecodable-path";
import { AppError } from "@/lib/foundation/errors";
import { log } from "@/lib/foundation/log";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];
const API_PATH = /^\/(api\/)?v1(\/|$)/;

/**
 * Two jobs, both before routing:
 * - The API under `next dev`: a path segment that is not percent-encoded UTF-8 makes Next.js fail
 *   decoding the route parameters with a plain-text 500. The production server answers such paths
 *   before Next.js (server/http-server.mjs, every path, at no cost per request); this does the same
 *   for the API when the proxy runs for it, and for dashboard pages, where it runs anyway: a logged
 *   400 JSON envelope under /v1 and /api, a plain 400 page for a dashboard path.
 * - Dashboard pages: signed-out browsers go to /login. It only looks for the session cookie and never
 *   opens the database: every page checks the session and the membership for real
 *   (app/_lib/dashboard-context.ts).
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const isApi = API_PATH.test(pathname) || pathname.startsWith("/api/");
  const refused = refuseUndecodablePath(request.method, pathname, isApi);
  if (refused) return refused;
  if (isApi) return NextResponse.next();
  if (SESSION_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next();
  const login = new URL("/login", request.url);
  return NextResponse.redirect(login);
}

function refuseUndecodablePath(method: string, pathname: string, isApi: boolean): Response | null {
  const segment = undecodableSegment(pathname);
  if (segment === null) return null;
  log.warn(isApi ? "undecodable api path" : "undecodable path", { method, path: pathname });
  const message = `The URL path segment "${segment}" is not valid percent-encoded UTF-8.`;
  if (isApi) return jsonResponse(errorReply(new AppError("EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", message, { param: "path" })));
  const page = `<!doctype html><meta charset="utf-8"><title>Bad request</title><h1>Bad request</h1><p>This address is not valid: part of it is not valid percent-encoded UTF-8. Check the link.</p>`;
  return new Response(page, { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

// Dashboard pages only: on the API it would cost every request about 0.7 ms of CPU (Next.js
// middleware; 4.4 → 3.7–3.9 ms of server CPU per single send), bench:api's whole regression; the production server checks API paths itself.
// Auth.js, tracking, unsubscribe, uploads, sign-in pages and static files never get here. (Next.js
// matches the raw path when it cannot decode it.)
export const config = {
  matcher: ["/((?!api/|v1/|_next/|t/|u/|login|setup|invite|favicon.ico|.*\\.[a-z0-9]+$).*)"],
};
