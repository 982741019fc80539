import "server-only";
import type { NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { env } from "@/lib/foundation/env";
import { log } from "@/lib/foundation/log";
import { verifyCredentials } from "@/lib/domain/users/verify-credentials";
import { createAuthAdapter } from "./adapter";
import { CHECK_EMAIL_PATH, isKnownUserEmail, MAGIC_LINK_PROVIDER_ID, magicLinkProvider } from "./magic-link";

export const PASSWORD_PROVIDER_ID = "password";
const EXPECTED_AUTH_ERRORS = new Set(["CredentialsSignin", "Verification", "AccessDenied"]);

/**
 * Dashboard sign-in: password or mailed link; the JWT cookie only says who the user is, every page re-reads memberships.
 * Built per call: nothing may read settings or open the database at import time.
 */
export async function authConfig(): Promise<NextAuthConfig> {
  const settings = env();
  return {
    secret: settings.AUTH_SECRET,
    // Self-hosted behind whatever proxy the operator runs: the host comes from APP_URL and the request.
    trustHost: true,
    useSecureCookies: settings.APP_URL.startsWith("https://"),
    session: { strategy: "jwt", maxAge: 30 * 24 * 3600 },
    adapter: await createAuthAdapter(),
    logger: {
      // A wrong password or a used link is an answer to the user, not a server error.
      error(error) {
        const type = (error as { type?: string }).type ?? error.name;
        if (EXPECTED_AUTH_ERRORS.has(type)) log.debug("sign-in refused", { type });
        else log.error("auth error", { type, error: String(error.cause ?? error.message) });
      },
    },
    pages: { signIn: "/login", error: "/login", verifyRequest: CHECK_EMAIL_PATH },
    providers: [
      Credentials({
        id: PASSWORD_PROVIDER_ID,
        name: "Email and password",
        credentials: { email: { type: "email" }, password: { type: "password" } },
        async authorize(credentials) {
          const email = typeof credentials?.email === "string" ? credentials.email : "";
          const password = typeof credentials?.password === "string" ? credentials.password : "";
          if (!email || !password) return null;
          return verifyCredentials(email, password);
        },
      }),
      magicLinkProvider(),
    ],
    callbacks: {
      async signIn({ user, account, email }) {
        if (account?.provider !== MAGIC_LINK_PROVIDER_ID) return true;
        if (user.email && (await isKnownUserEmail(user.email))) return true;
        // A stranger gets the same "check your inbox" page as a user, but no token, no mail, no account.
        return email?.verificationRequest ? CHECK_EMAIL_PATH : false;
      },
      // Only to our own origin (APP_URL, whatever host the request came in on), so sign-in is never an open redirect.
      redirect({ url, baseUrl }) {
        const app = new URL(settings.APP_URL);
        const target = new URL(url, app);
        if (target.origin !== app.origin && target.origin !== new URL(baseUrl).origin) return app.origin;
        return `${app.origin}${target.pathname}${target.search}${target.hash}`;
      },
      jwt({ token, user }) {
        if (user?.id) token.sub = user.id;
        return token;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
  };
}
