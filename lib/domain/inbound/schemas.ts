import { z } from "zod";

/** Inputs of inbound domains and routes (docs/api.md#inbound-domains-and-routes), shared by the API, the CLI and the dashboard. */

export const addInboundDomainSchema = z.object({
  name: z
    .string({ message: "name must be a domain name, e.g. in.example.com." })
    .trim()
    .min(1, "name must be a domain name, e.g. in.example.com.")
    .max(253, "name must be at most 253 characters.")
    .describe("The domain (or subdomain) to receive mail for, e.g. in.example.com."),
});

/** An SMTP reply a route gives at RCPT TO: 450–459 (try later) or 550–559 (refused), one printable ASCII line. */
const rejectAction = z.object({
  type: z.literal("reject"),
  code: z
    .number()
    .int()
    .refine(
      (code) => (code >= 450 && code <= 459) || (code >= 550 && code <= 559),
      "must be from 450 to 459 or 550 to 559",
    )
    .describe("The SMTP reply code: 450–459 (the sender retries) or 550–559 (refused)."),
  message: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\x20-\x7e]+$/, "must be printable ASCII on one line (no CR or LF)")
    .describe("The reply text (printable ASCII, at most 200 characters)."),
});

export const inboundActionSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("webhook") }).describe("An email.received webhook to the workspace's endpoints."),
  z.object({
    type: z.literal("forward"),
    to: z.string().min(3).max(320).describe("One address, never on one of the workspace's inbound domains."),
    from: z
      .string()
      .min(3)
      .max(320)
      .optional()
      .describe("The forward's sender: an address the workspace may send from (a verified domain)."),
  }),
  z.object({
    type: z.literal("workflow"),
    workflowId: z.string().min(1).max(64).describe("A workflow of the workspace (wf_…), started with the parsed mail."),
  }),
  z
    .object({ type: z.literal("dmarc") })
    .describe(
      "DMARC aggregate reports in the mail's attachments (XML, gzip or zip), stored for the workspace's domains.",
    ),
  rejectAction,
]);

const routeFields = {
  pattern: z
    .string()
    .trim()
    .min(3)
    .max(320)
    .describe("`support@in.example.com`, `support+{hash}@in.example.com` or `*@in.example.com`."),
  name: z.string().trim().max(200).nullable().optional().describe("A label for people."),
  actions: z
    .array(inboundActionSchema)
    .max(10)
    .describe("In order, after storing (always): webhook, forward, workflow, dmarc; or one reject alone."),
  dmarcFailAction: z.enum(["accept", "quarantine", "reject"]).describe("Mail failing DMARC: default accept."),
  spamThreshold: z
    .number()
    .min(-100)
    .max(100)
    .nullable()
    .describe("Above this spamd score the spamAction applies; null: no threshold."),
  spamAction: z.enum(["quarantine", "reject"]).describe("Default quarantine."),
  enabled: z.boolean().describe("A disabled route is skipped when matching (default true)."),
};

export const createInboundRouteSchema = z.object({
  pattern: routeFields.pattern,
  name: routeFields.name,
  actions: routeFields.actions.optional(),
  dmarcFailAction: routeFields.dmarcFailAction.optional(),
  spamThreshold: routeFields.spamThreshold.optional(),
  spamAction: routeFields.spamAction.optional(),
  enabled: routeFields.enabled.optional(),
});
export type CreateInboundRouteInput = z.infer<typeof createInboundRouteSchema>;

export const updateInboundRouteSchema = createInboundRouteSchema.partial();
export type UpdateInboundRouteInput = z.infer<typeof updateInboundRouteSchema>;
