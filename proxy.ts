import { NextResponse, type NextRequest } from "next/server";
import { undecodablePathAnswer, undecodablePathResponse } from "@/lib/entry/api/undecodable-path";
import { log } from "@/lib/foundation/log";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];

/**
 * Dashboard pages only (see the matcher): a path that is not percent-encoded UTF-8 gets the plain 400
 * page under `next dev` too (the production server answers it before Next.js), and signed-out
 * browsers go to /login. It only looks for the session cookie and never opens the database: every page
 * checks the session and the membership for real (app/_lib/dashboard-context.ts).
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const refused = undecodablePathAnswer(pathname);
  if (refused) {
    log.warn("undecodable path", { method: request.method, path: pathname });
    return undecodablePathResponse(refused);
  }
  if (SESSION_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next();
  return NextResponse.redirect(new URL("/login", request.url));
}

// The API routes itself (app/api/routes.ts); Auth.js, tracking, unsubscribe, uploads, sign-in pages and
// static files never need the proxy. (Next.js matches the raw path when it cannot decode it.)
export const config = {
  matcher: ["/((?!api/|v1/|_next/|t/|u/|login|setup|invite|favicon.ico|.*\\.[a-z0-9]+$).*)"],
};
