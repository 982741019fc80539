import { signedPostRoute } from "@/lib/entry/api/signed-post-route";
import { ingestSesNotification } from "@/lib/delivery/providers/ses/ingest-ses-notification";

// POST /api/provider-events/ses – SNS HTTP(S) deliveries of SES events, subscription confirmations.
// SNS messages are at most 256 KB, plus the envelope's signature fields.
const route = signedPostRoute({
  maxBytes: 300 * 1024,
  bodyName: "An SNS message",
  ingest: (body) => ingestSesNotification(body),
});

export const POST = route.POST;
export const GET = route.GET;
export const PUT = route.PUT;
export const PATCH = route.PATCH;
export const DELETE = route.DELETE;
