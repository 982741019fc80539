import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "@/lib/records/timeline/webhook-event-types.shared";

const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((types) => [...new Set(types)]);

/** POST /v1/webhook_endpoints. `eventTypes` absent or null: every type, including ones added later. */
export const createEndpointSchema = z.object({
  url: z.string().min(1).max(2048),
  description: z.string().max(500).optional(),
  eventTypes: eventTypes.nullable().optional(),
  enabled: z.boolean().optional(),
});
export type CreateEndpointInput = z.infer<typeof createEndpointSchema>;

/** PATCH /v1/webhook_endpoints/:id: any subset; enabling clears the reason the service disabled it for. */
export const updateEndpointSchema = z.object({
  url: z.string().min(1).max(2048).optional(),
  description: z.string().max(500).optional(),
  eventTypes: eventTypes.nullable().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateEndpointInput = z.infer<typeof updateEndpointSchema>;

/** POST /v1/webhook_endpoints/:id/replay: events since then, or with `eventId` that one event. */
export const replaySchema = z
  .object({
    since: z.iso.datetime({ offset: true }).optional().describe("Replay the events recorded since this time."),
    eventId: z
      .string()
      .regex(/^evt_[0-9A-Za-z]{16}$/, "must be an event id (evt_…)")
      .optional()
      .describe("Resend this one event instead."),
    /** "missed" (default): events with no succeeded delivery to it; "all": every event since. */
    mode: z.enum(["missed", "all"]).optional(),
  })
  .refine((body) => (body.since === undefined) !== (body.eventId === undefined), {
    path: ["since"],
    message: "give since or eventId (one of them)",
  });

export const endpointIdPattern = /^whep_[0-9A-Za-z]{16}$/;
