import { NextResponse, type NextRequest } from "next/server";
import { errorReply, jsonResponse } from "@/lib/api/respond";
import { undecodableSegment } from "@/lib/api/undecodable-path";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];
const API_PATH = /^\/(api\/)?v1(\/|$)/;

/**
 * Two jobs, both before routing:
 * - The API: a path segment that is not percent-encoded UTF-8 makes Next.js fail decoding the route
 *   parameters with a plain-text 500 before any handler runs (and unlogged). Every answer under /v1
 *   is JSON (docs/api.md#decided-errors), so such a path is answered here: a logged 400 envelope.
 * - Dashboard pages: signed-out browsers go to /login. It only looks for the session cookie and never
 *   opens the database: every page checks the session and the membership for real
 *   (app/_lib/dashboard-context.ts).
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (API_PATH.test(pathname)) return refuseUndecodablePath(request.method, pathname) ?? NextResponse.next();
  if (SESSION_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next();
  const login = new URL("/login", request.url);
  return NextResponse.redirect(login);
}

function refuseUndecodablePath(method: string, pathname: string): Response | null {
  const segment = undecodableSegment(pathname);
  if (segment === null) return null;
  log.warn("undecodable api path", { method, path: pathname });
  const message = `The URL path segment "${segment}" is not valid percent-encoded UTF-8.`;
  return jsonResponse(errorReply(new AppError("EMAIL_MESSAGE_INVALID_PARAMETER_ERROR", message, { param: "path" })));
}

// Dashboard pages, and the API for the check above only: Auth.js, tracking, unsubscribe, uploads,
// sign-in pages and static files never get here. (Next.js matches the raw path when it cannot decode it.)
export const config = {
  matcher: ["/api/v1/:path*", "/v1/:path*", "/((?!api/|v1/|_next/|t/|u/|login|setup|invite|favicon.ico|.*\\.[a-z0-9]+$).*)"],
};
