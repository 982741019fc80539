import { signedPostRoute } from "@/lib/entry/api/signed-post-route";
import { ingestSesNotification } from "@/lib/delivery/providers/ses/ingest-ses-notification";
import { eventsConnectionOrThrow } from "@/lib/domain/providers/events-connection";

// POST /api/provider-events/ses/:id – a workspace connection's SNS deliveries, from the topics it names.
export function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return signedPostRoute({
    maxBytes: 300 * 1024,
    bodyName: "An SNS message",
    ingest: async (body) => {
      const { id } = await context.params;
      return ingestSesNotification(body, await eventsConnectionOrThrow(id, "ses"));
    },
  }).POST(request);
}
