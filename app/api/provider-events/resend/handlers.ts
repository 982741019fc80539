import { signedPostRoute } from "@/lib/entry/api/signed-post-route";
import { ingestResendEvent } from "@/lib/delivery/providers/resend/ingest-resend-event";

// POST /api/provider-events/resend – Resend's signed webhook deliveries (Svix / Standard Webhooks).
// Resend's events are a few KB; anything far larger is not one.
export const { POST } = signedPostRoute({
  maxBytes: 256 * 1024,
  bodyName: "A Resend event",
  ingest: (body, headers) => ingestResendEvent({ body, headers }),
});
