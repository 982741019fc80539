import { signedPostRoute } from "@/lib/entry/api/signed-post-route";
import { ingestResendEvent } from "@/lib/delivery/providers/resend/ingest-resend-event";
import { eventsConnectionOrThrow } from "@/lib/domain/providers/events-connection";

// POST /api/provider-events/resend/:id – a workspace connection's Resend events, verified with its own webhook secret.
export function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return signedPostRoute({
    maxBytes: 256 * 1024,
    bodyName: "A Resend event",
    ingest: async (body, headers) => {
      const { id } = await context.params;
      return ingestResendEvent({ body, headers }, await eventsConnectionOrThrow(id, "resend"));
    },
  }).POST(request);
}
