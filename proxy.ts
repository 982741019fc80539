import { NextResponse, type NextRequest } from "next/server";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];

/**
 * Sends signed-out browsers to /login before any dashboard page renders. It only looks for the
 * session cookie and never opens the database: every page checks the session and the membership
 * for real (app/_lib/dashboard-context.ts).
 */
export function proxy(request: NextRequest) {
  if (SESSION_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next();
  const login = new URL("/login", request.url);
  return NextResponse.redirect(login);
}

// Dashboard pages only: the API, Auth.js, tracking, unsubscribe, uploads, sign-in pages and static
// files never get here.
export const config = {
  matcher: ["/((?!api/|v1/|_next/|t/|u/|login|setup|invite|favicon.ico|.*\\.[a-z0-9]+$).*)"],
};
