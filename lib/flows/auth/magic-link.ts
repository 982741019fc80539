import "server-only";
import { eq } from "drizzle-orm";
import type { EmailConfig } from "next-auth/providers/email";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { sendSystemMail } from "@/lib/sending/send-system-mail";

export const MAGIC_LINK_PROVIDER_ID = "magic-link";
/** Where both a known and an unknown address end up, so the answer does not tell them apart. */
export const CHECK_EMAIL_PATH = "/login/check-email";
const MAX_AGE_SECONDS = 30 * 60;

export async function isKnownUserEmail(email: string): Promise<boolean> {
  const db = await getDb();
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
  return Boolean(user);
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[char]!);

/** The sign-in link, sent as system mail (never through a tenant workspace, whose members could read it). */
export async function sendSignInLink(input: { email: string; url: string; expires: Date }): Promise<string> {
  const expires = input.expires.toUTCString();
  return sendSystemMail({
    to: input.email,
    subject: "Your Postwerk sign-in link",
    html: [
      "<p>Use this link to sign in to Postwerk:</p>",
      `<p><a href="${escapeHtml(input.url)}">Sign in</a></p>`,
      `<p>It works once, until ${expires}. If you did not ask for it, ignore this email.</p>`,
    ].join("\n"),
    text: `Sign in to Postwerk: ${input.url}\n\nThe link works once, until ${expires}. If you did not ask for it, ignore this email.`,
  });
}

/** Auth.js email provider: tokens through the adapter, the mail through the system workspace. */
export function magicLinkProvider(): EmailConfig {
  return {
    id: MAGIC_LINK_PROVIDER_ID,
    type: "email",
    name: "Email link",
    maxAge: MAX_AGE_SECONDS,
    async sendVerificationRequest({ identifier, url, expires }) {
      await sendSignInLink({ email: identifier, url, expires });
    },
  };
}
