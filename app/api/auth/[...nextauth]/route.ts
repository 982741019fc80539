import type { NextRequest } from "next/server";
import { handlers } from "@/app/_lib/auth";

// Auth.js endpoints: CSRF token, session, sign-out, the sign-in link's callback.
export const { GET } = handlers;

const SIGN_IN_POST = /\/(signin|callback)\/(password|magic-link)$/;

// POST /api/auth/* – sign-in goes only through /login's server actions, which throttle attempts per email and IP.
export async function POST(request: NextRequest) {
  if (SIGN_IN_POST.test(request.nextUrl.pathname)) {
    return Response.json({ error: { code: "NOT_FOUND", message: "Sign in on the /login page." } }, { status: 404 });
  }
  return handlers.POST(request);
}
