import "server-only";
import { createHmac } from "node:crypto";
import { derivedKey, safeEqual } from "@/lib/foundation/crypto/secret-box";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";

/** How long a download URL in an API answer stays valid. */
export const ATTACHMENT_URL_TTL_SECONDS = 3600;

// The ids are unique across workspaces, so the signature alone says which workspace's bytes these are.
interface DownloadGrant {
  inboundMessageId: string;
  attachmentId: string;
  expires: number;
}

// An HMAC (key derived from AUTH_SECRET, apart from the upload URLs') over message, attachment and expiry:
// the URL is its own credential, like the upload URLs (lib/domain/attachments/upload-signature.ts).
function sign(grant: DownloadGrant): string {
  const canonical = ["GET", grant.inboundMessageId, grant.attachmentId, String(grant.expires)];
  return createHmac("sha256", derivedKey("inbound-attachment-url")).update(canonical.join("\n")).digest("hex");
}

/** `APP_URL/v1/inbound_messages/:id/attachments/:attachmentId?expires&signature`. */
export function inboundAttachmentUrl(
  target: Omit<DownloadGrant, "expires">,
  now = new Date(),
  ttlSeconds = ATTACHMENT_URL_TTL_SECONDS,
): string {
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  const query = new URLSearchParams({ expires: String(expires), signature: sign({ ...target, expires }) });
  const path = `/v1/inbound_messages/${target.inboundMessageId}/attachments/${target.attachmentId}`;
  return `${env().APP_URL}${path}?${query.toString()}`;
}

/** Passes for a URL this service signed and that has not expired; 401 naming what is wrong otherwise. */
export function verifyInboundAttachmentUrl(
  target: Omit<DownloadGrant, "expires">,
  query: URLSearchParams,
  now = new Date(),
): void {
  const expires = Number(query.get("expires"));
  const signature = query.get("signature") ?? "";
  if (!Number.isSafeInteger(expires) || !safeEqual(signature, sign({ ...target, expires }))) {
    throw new AppError(
      "UNAUTHORIZED",
      "The download URL's signature does not match: use the attachment's url exactly as GET /v1/inbound_messages/:id returned it.",
    );
  }
  if (expires * 1000 <= now.getTime()) {
    throw new AppError(
      "UNAUTHORIZED",
      `The download URL expired at ${new Date(expires * 1000).toISOString()}: read the message again for a fresh url.`,
    );
  }
}
