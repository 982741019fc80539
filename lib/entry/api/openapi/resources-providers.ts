import { z } from "zod";
import { CIRCUIT_STATES, CONNECTION_KINDS, MAILBOX_FAMILIES } from "@/db/schema";
import {
  createConnectionSchema,
  createRuleSchema,
  dryRunSchema,
  ruleMatchSchema,
  SECRET_FIELDS,
  updateConnectionSchema,
  updateRuleSchema,
} from "@/lib/domain/providers/schemas";

/** Provider connections and routing rules (docs/api.md#providers-and-routing), checked against their serializers. */
const timestamp = z.iso.datetime().describe("ISO 8601 UTC with milliseconds.");

export const providerConnectionResource = z.object({
  id: z.string().describe('A "pcon_" prefix and 16 base62 characters.'),
  type: z.literal("ProviderConnection"),
  name: z.string().describe("What routing rules name it by."),
  kind: z.enum(CONNECTION_KINDS),
  settings: z
    .object({
      url: z.string().optional(),
      user: z.string().optional(),
      baseUrl: z.string().optional(),
      region: z.string().optional(),
      accessKeyId: z.string().optional(),
      configurationSet: z.string().optional(),
      endpoint: z.string().optional(),
      snsTopicArns: z.array(z.string()).optional(),
    })
    .describe("The settings that are not secret."),
  secretsSet: z.array(z.enum(SECRET_FIELDS)).describe("Which secrets are set; their values are never returned."),
  ratePerSecond: z.int().nullable(),
  concurrency: z.int().nullable(),
  eventsPath: z
    .string()
    .nullable()
    .describe("resend and ses: the path (under APP_URL) where the provider posts this connection's events."),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const routingRuleResource = z.object({
  id: z.string().describe('An "rrule_" prefix and 16 base62 characters.'),
  type: z.literal("RoutingRule"),
  name: z.string().nullable(),
  position: z.int(),
  match: ruleMatchSchema,
  connections: z.array(z.string()).describe("The primary first, then the fallbacks in order."),
  enabled: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const routeDryRunResource = z.object({
  rule: z.object({ id: z.string(), name: z.string().nullable() }).nullable().describe("Null: no rule matches."),
  connections: z.array(
    z.object({
      name: z.string(),
      id: z.string().describe("The connection's id, or `default`."),
      kind: z.string(),
      role: z.enum(["primary", "fallback"]),
      circuit: z.enum(CIRCUIT_STATES),
    }),
  ),
  simulator: z.boolean().describe("A simulator address: the simulator answers whatever the rules say."),
  facts: z.object({
    stream: z.string(),
    senderDomain: z.string(),
    recipientDomains: z.array(z.object({ domain: z.string(), mailboxFamily: z.enum(MAILBOX_FAMILIES).nullable() })),
  }),
  summary: z.string().describe("The route in a sentence."),
});

/** The named schemas of components.ts for this family. */
export function providerSchemas(): Array<[string, z.ZodType, string]> {
  return [
    ["ProviderConnection", providerConnectionResource, "A workspace's own way out: a relay, a Resend or SES account."],
    ["RoutingRule", routingRuleResource, "A match and the connections its messages go through, in order."],
    ["RouteDryRun", routeDryRunResource, "The route a message would take."],
    ["CreateProviderConnectionRequest", createConnectionSchema, "Body of POST /v1/providers."],
    ["UpdateProviderConnectionRequest", updateConnectionSchema, "Body of PATCH /v1/providers/{id}: any subset."],
    ["CreateRoutingRuleRequest", createRuleSchema, "Body of POST /v1/routing_rules."],
    ["UpdateRoutingRuleRequest", updateRuleSchema, "Body of PATCH /v1/routing_rules/{id}: any subset."],
    ["RouteDryRunRequest", dryRunSchema, "Body of POST /v1/routing_rules/dry_run."],
  ];
}
