import { signedPostRoute } from "@/lib/entry/api/signed-post-route";
import { ingestResendEvent } from "@/lib/delivery/providers/resend/ingest-resend-event";

// POST /api/provider-events/resend – Resend's signed webhook deliveries (Svix / Standard Webhooks).
// Resend's events are a few KB; anything far larger is not one.
const route = signedPostRoute({
  maxBytes: 256 * 1024,
  bodyName: "A Resend event",
  ingest: (body, headers) => ingestResendEvent({ body, headers }),
});

export const POST = route.POST;
export const GET = route.GET;
export const PUT = route.PUT;
export const PATCH = route.PATCH;
export const DELETE = route.DELETE;
