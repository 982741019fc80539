import { NextResponse, type NextRequest } from "next/server";

/**
 * The pre-dashboard pages (`/`, `/messages/…`) take the API's HTTP Basic credentials until sign-in
 * lands. Only a 401 with WWW-Authenticate makes a browser ask for them, and a page cannot answer
 * one, so this asks whenever no Basic header came. It never opens the database: the page checks
 * the key itself and answers 401 (app/unauthorized.tsx) when it names no live key.
 */
export function proxy(request: NextRequest) {
  if (/^Basic\s+\S/i.test(request.headers.get("authorization") ?? "")) {
    // Browsers ignore this on a 200; on the page's 401 (wrong key) it makes them ask again.
    const response = NextResponse.next();
    response.headers.set("WWW-Authenticate", 'Basic realm="postwerk"');
    return response;
  }
  return new NextResponse(
    "Authentication required: sign in with an API key of your workspace (username key_…, and its password).\n",
    {
      status: 401,
      headers: {
        "WWW-Authenticate": 'Basic realm="postwerk"',
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "no-store",
      },
    },
  );
}

// Exact pages only: /api/*, /v1/* (the API's own 401), /_next/* and public files never get here.
export const config = { matcher: ["/", "/messages/:path*"] };
