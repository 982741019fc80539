import "server-only";
import { createHmac } from "node:crypto";
import { derivedKey, safeEqual } from "@/lib/foundation/crypto/secret-box";
import { AppError } from "@/lib/foundation/errors";

// Local upload URLs carry expires, credential and an HMAC (key derived from AUTH_SECRET) over method, id, expiry and
// credential: changing any of them breaks it.
export interface UploadGrant {
  attachmentId: string;
  expires: number;
  credential: string;
}

export function signUpload(grant: UploadGrant): string {
  const canonical = ["PUT", grant.attachmentId, String(grant.expires), grant.credential].join("\n");
  return createHmac("sha256", derivedKey("upload-url")).update(canonical).digest("hex");
}

export function uploadQuery(grant: UploadGrant): string {
  const query = new URLSearchParams({
    expires: String(grant.expires),
    credential: grant.credential,
    signature: signUpload(grant),
  });
  return query.toString();
}

/** Constant-time signature check, then the expiry; both 401, with a message saying which. */
export function verifyUploadGrant(attachmentId: string, query: URLSearchParams, now = new Date()): UploadGrant {
  const expires = Number(query.get("expires"));
  const credential = query.get("credential") ?? "";
  const signature = query.get("signature") ?? "";
  const grant = { attachmentId, expires, credential };
  if (!Number.isSafeInteger(expires) || !credential || !safeEqual(signature, signUpload(grant))) {
    throw new AppError(
      "UNAUTHORIZED",
      "The upload URL's signature does not match: use the uploadUrl exactly as POST /v1/attachments returned it.",
    );
  }
  if (expires * 1000 <= now.getTime()) {
    throw new AppError(
      "UNAUTHORIZED",
      `The upload URL expired at ${new Date(expires * 1000).toISOString()}: create a new attachment with POST /v1/attachments.`,
    );
  }
  return grant;
}
