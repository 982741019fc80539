import { Auth, raw, skipCSRFCheck, type AuthConfig } from "@auth/core";
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, localInbox, users, verificationTokens } from "@/db/schema";
import { deliverMessage } from "@/lib/testing/deliver-message";
import { env } from "@/lib/foundation/env";
import { addPerson, uniqueEmail, workspaceWithOwner } from "@/lib/flows/members/test-helpers";
import { SYSTEM_WORKSPACE_ID } from "@/lib/domain/workspaces/system-workspace";
import { authConfig } from "./auth-config";
import { CHECK_EMAIL_PATH } from "./magic-link";

/** Auth.js exactly as the server actions (POST, raw) and the link's callback route (GET) drive it. */
async function run(request: Request, asServerAction: boolean) {
  const config = { ...(await authConfig()), basePath: "/api/auth" } as AuthConfig;
  if (asServerAction) return Auth(request, { ...config, raw, skipCSRFCheck });
  return Auth(request, config);
}

async function requestLink(email: string): Promise<{ redirect: string }> {
  const body = new URLSearchParams({ email, callbackUrl: "/" });
  const request = new Request(`${env().APP_URL}/api/auth/signin/magic-link`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  return (await run(request, true)) as { redirect: string };
}

async function systemMailTo(email: string) {
  const db = await getDb();
  return db
    .select()
    .from(emailMessages)
    .where(and(eq(emailMessages.workspaceId, SYSTEM_WORKSPACE_ID), eq(emailMessages.toAddresses, [email])));
}

async function tokensFor(email: string) {
  const [row] = await (
    await getDb()
  )
    .select({ value: count() })
    .from(verificationTokens)
    .where(eq(verificationTokens.identifier, email));
  return row.value;
}

describe("sign-in links", () => {
  it("a known user gets a token and a link in the System mail inbox (not in their workspace); the link signs them in once", async () => {
    const { workspace } = await workspaceWithOwner();
    const { user } = await addPerson(workspace.id, "MEMBER");
    const answer = await requestLink(user.email.toUpperCase());
    expect(answer.redirect).toContain("/verify-request");
    expect(await tokensFor(user.email)).toBe(1);

    const [mail] = await systemMailTo(user.email);
    expect(mail.subject).toBe("Your Postwerk sign-in link");
    const db = await getDb();
    expect(await db.select().from(emailMessages).where(eq(emailMessages.workspaceId, workspace.id))).toHaveLength(0);
    await deliverMessage({ workspaceId: SYSTEM_WORKSPACE_ID, messageId: mail.id }, { attempt: 0 });
    const [inbox] = await db.select().from(localInbox).where(eq(localInbox.emailMessageId, mail.id));
    expect(inbox.workspaceId).toBe(SYSTEM_WORKSPACE_ID);

    const link = mail.bodyText!.match(/https?:\/\/\S+/)![0];
    expect(link).toContain(`${env().APP_URL}/api/auth/callback/magic-link?`);
    const signedIn = (await run(new Request(link), false)) as Response;
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(`${env().APP_URL}/`);
    expect(signedIn.headers.getSetCookie().join("\n")).toMatch(/authjs\.session-token=[^;]+;.*HttpOnly/i);
    expect(await tokensFor(user.email)).toBe(0);
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row.emailVerified).toBeInstanceOf(Date);

    const again = (await run(new Request(link), false)) as Response;
    expect(again.headers.get("location")).toContain("/login?error=Verification");
    expect(again.headers.getSetCookie().join("\n")).not.toMatch(/authjs\.session-token=[^;]+/);
  });

  it("a stranger sees the same check-your-inbox answer but gets no token, no mail and no account", async () => {
    const email = uniqueEmail("stranger");
    const answer = await requestLink(email);
    expect(answer.redirect).toBe(`${env().APP_URL}${CHECK_EMAIL_PATH}`);
    expect(await tokensFor(email)).toBe(0);
    expect(await systemMailTo(email)).toHaveLength(0);
    expect(await (await getDb()).select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it("password sign-in still works through the same configuration, and a wrong password is refused", async () => {
    const { owner } = await workspaceWithOwner();
    const signIn = (password: string) =>
      run(
        new Request(`${env().APP_URL}/api/auth/callback/password`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ email: owner.email, password, callbackUrl: "/" }),
        }),
        true,
      );
    const ok = (await signIn("owner-password")) as { cookies: { name: string }[] };
    expect(ok.cookies.map((cookie) => cookie.name)).toContain("authjs.session-token");
    await expect(signIn("wrong-password")).rejects.toMatchObject({ type: "CredentialsSignin" });
  });
});

describe("redirects after sign-in", () => {
  it("go to APP_URL's origin, never elsewhere", async () => {
    const { callbacks } = await authConfig();
    const app = env().APP_URL;
    const redirect = (url: string) => callbacks!.redirect!({ url, baseUrl: "http://localhost:9" });
    expect(await redirect("/settings?x=1")).toBe(`${app}/settings?x=1`);
    expect(await redirect("http://localhost:9/emails")).toBe(`${app}/emails`);
    expect(await redirect("https://evil.example/steal")).toBe(new URL(app).origin);
  });
});
