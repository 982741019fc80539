import "server-only";
import NextAuth, { type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { env } from "@/lib/env";
import { verifyCredentials } from "@/lib/users/verify-credentials";

/**
 * Dashboard sign-in (Auth.js v5). Sessions are signed JWT cookies (HttpOnly, SameSite=Lax, Secure
 * when APP_URL is https); Auth.js adds its CSRF token to every sign-in and sign-out POST. The cookie
 * only says who the user is: every page and server action re-reads the user's memberships from the
 * database (app/(dashboard)/_lib/context.ts), so a removed member loses access at once.
 * The config is built lazily: nothing may read settings or open the database at import time.
 */
function config(): NextAuthConfig {
  const settings = env();
  return {
    secret: settings.AUTH_SECRET,
    // Self-hosted behind whatever proxy the operator runs: the host comes from APP_URL and the request.
    trustHost: true,
    useSecureCookies: settings.APP_URL.startsWith("https://"),
    session: { strategy: "jwt", maxAge: 30 * 24 * 3600 },
    pages: { signIn: "/login", error: "/login" },
    providers: [
      Credentials({
        id: "password",
        name: "Email and password",
        credentials: { email: { type: "email" }, password: { type: "password" } },
        async authorize(credentials) {
          const email = typeof credentials?.email === "string" ? credentials.email : "";
          const password = typeof credentials?.password === "string" ? credentials.password : "";
          if (!email || !password) return null;
          return verifyCredentials(email, password);
        },
      }),
    ],
    callbacks: {
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

export const { handlers, auth, signIn, signOut } = NextAuth(() => config());
