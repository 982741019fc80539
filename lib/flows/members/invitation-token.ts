import { and, eq, gt, isNull } from "drizzle-orm";
import { createHash, randomBytes } from "node:crypto";
import { invitations } from "@/db/schema";

/** 32 random bytes, base64url: the secret in the emailed link. Only its SHA-256 is stored. */
export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashInvitationToken(token) };
}

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/** A well-formed token: anything else is "unknown" without a database lookup. */
export function isInvitationToken(value: string): boolean {
  return /^[\w-]{43}$/.test(value);
}

/** Pending: neither accepted nor revoked, not expired, in this workspace. */
export function pendingIn(workspaceId: string) {
  return and(
    eq(invitations.workspaceId, workspaceId),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
    gt(invitations.expiresAt, new Date()),
  );
}
