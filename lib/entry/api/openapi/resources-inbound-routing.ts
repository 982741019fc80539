import { z } from "zod";
import { INBOUND_DOMAIN_STATUSES, INBOUND_ROUTE_KINDS } from "@/db/schema";
import {
  addInboundDomainSchema,
  createInboundRouteSchema,
  inboundActionSchema,
  updateInboundRouteSchema,
} from "@/lib/domain/inbound/schemas";

/** Inbound domains and routes (docs/api.md#inbound-domains-and-routes), checked against their serializers like the others. */
const timestamp = z.iso.datetime().describe("ISO 8601 UTC with milliseconds.");

export const inboundDomainResource = z.object({
  id: z.string().describe('An "idom_" prefix and 16 base62 characters.'),
  type: z.literal("InboundDomain"),
  name: z.string().describe("Lower-cased, no trailing dot."),
  status: z
    .enum(INBOUND_DOMAIN_STATUSES)
    .describe("VERIFIED once its MX names the deployment's MX host; mail is taken only for a VERIFIED domain."),
  verifiedAt: timestamp.nullable(),
  lastCheckedAt: timestamp.nullable(),
  lastCheckError: z.string().nullable().describe('What the last check found wrong, e.g. "MX missing".'),
  records: z
    .array(
      z.object({
        type: z.literal("MX"),
        host: z.string().describe("The domain itself."),
        value: z.string().describe("The deployment's MX host (INBOUND_MX_HOST, else APP_URL's host)."),
        priority: z.int(),
        state: z.enum(["found", "missing", "wrong value", "lookup failed", "unchecked"]),
        detail: z.string().nullable().describe("What the check just made found (verify only)."),
      }),
    )
    .describe("The record to publish."),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const inboundRouteResource = z.object({
  id: z.string().describe('An "irt_" prefix and 16 base62 characters.'),
  type: z.literal("InboundRoute"),
  inboundDomainId: z.string(),
  name: z.string().nullable(),
  pattern: z.string().describe("Lower-cased: support@d, support+{hash}@d or *@d."),
  kind: z.enum(INBOUND_ROUTE_KINDS).describe("exact, plus, catch_all: matched in this order."),
  actions: z.array(inboundActionSchema),
  dmarcFailAction: z.enum(["accept", "quarantine", "reject"]),
  spamThreshold: z.number().nullable(),
  spamAction: z.enum(["quarantine", "reject"]),
  enabled: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

/** The named schemas of components.ts for this family. */
export function inboundRoutingSchemas(): Array<[string, z.ZodType, string]> {
  return [
    [
      "InboundDomain",
      inboundDomainResource,
      "A domain the workspace receives mail for, with the MX record to publish.",
    ],
    ["InboundRoute", inboundRouteResource, "A recipient pattern and what happens to its mail."],
    ["AddInboundDomainRequest", addInboundDomainSchema, "Body of POST /v1/inbound_domains."],
    ["CreateInboundRouteRequest", createInboundRouteSchema, "Body of POST /v1/inbound_routes."],
    ["UpdateInboundRouteRequest", updateInboundRouteSchema, "Body of PATCH /v1/inbound_routes/{id}: any subset."],
  ];
}
