import { NextResponse, type NextRequest } from "next/server";
import { errorReply, jsonResponse } from "@/lib/api/respond";
import { undecodableSegment } from "@/lib/api/undecodable-path";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];
const API_PATH = /^\/(api\/)?v1(\/|$)/;

/** Paths outside the dashboard that the proxy checks for undecodable segments only (no sign-in). */
const PUBLIC_PATH = /^\/(api|t|u|invite)(\/|$)/;

/**
 * Two jobs, both before routing:
 * - Undecodable paths: a path segment that is not percent-encoded UTF-8 makes Next.js fail decoding
 *   the route parameters with a plain-text 500 before any handler runs (and unlogged). Such a path is
 *   answered here, logged: a 400 JSON envelope under /v1 and /api (every API answer is JSON,
 *   docs/api.md#decided-errors), a plain 400 page anywhere else (dashboard, links in emails).
 * - Dashboard pages: signed-out browsers go to /login. It only looks for the session cookie and never
 *   opens the database: every page checks the session and the membership for real
 *   (app/_lib/dashboard-context.ts).
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const isApi = API_PATH.test(pathname) || pathname.startsWith("/api/");
  const refused = refuseUndecodablePath(request.method, pathname, isApi);
  if (refused) return refused;
  if (isApi || PUBLIC_PATH.test(pathname)) return NextResponse.next();
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

// Dashboard pages; the API, tracking and unsubscribe links and invitations for the path check only.
// Sign-in pages and static files never get here. (Next.js matches the raw path when it cannot decode it.)
export const config = {
  matcher: [
    "/api/:path*",
    "/v1/:path*",
    "/t/:path*",
    "/u/:path*",
    "/invite/:path*",
    "/((?!api/|v1/|_next/|t/|u/|login|setup|invite|favicon.ico|.*\\.[a-z0-9]+$).*)",
  ],
};
