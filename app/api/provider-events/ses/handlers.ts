import { signedPostRoute } from "@/lib/entry/api/signed-post-route";
import { ingestSesNotification } from "@/lib/delivery/providers/ses/ingest-ses-notification";

// POST /api/provider-events/ses – SNS HTTP(S) deliveries of SES events, subscription confirmations.
// SNS messages are at most 256 KB, plus the envelope's signature fields.
export const { POST } = signedPostRoute({
  maxBytes: 300 * 1024,
  bodyName: "An SNS message",
  ingest: (body) => ingestSesNotification(body),
});
