import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "@/lib/timeline/webhook-event-types.shared";

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

/** POST /v1/webhook_endpoints/:id/replay: every event since then that did not reach the endpoint, sent again. */
export const replaySchema = z.object({
  since: z.iso.datetime({ offset: true }),
  /** "missed" (default): events with no succeeded delivery to it; "all": every event since. */
  mode: z.enum(["missed", "all"]).optional(),
});

export const endpointIdPattern = /^whep_[0-9A-Za-z]{16}$/;
