import { z } from "zod";
import { CONNECTION_KINDS, MAILBOX_FAMILIES } from "@/db/schema/providers";

/** Inputs of provider connections and routing rules (docs/api.md#providers-and-routing), for the API, the CLI and the dashboard. */

/** What rules name a connection by; `default` is the instance's own connection. */
export const CONNECTION_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;
export const DEFAULT_CONNECTION = "default";

const connectionName = z
  .string()
  .trim()
  .regex(CONNECTION_NAME, "must be 1–40 lower-case letters, digits, - or _, starting with a letter or digit")
  .describe("What routing rules name it by, e.g. `eu-relay`; `default` is the instance's connection.");

const secret = (what: string) => z.string().min(1).max(4096).describe(`${what} Write-only: never returned.`);

/** Every setting a connection may have; which apply depends on its kind (connectionFieldsOf). */
const connectionFields = {
  url: z
    .string()
    .trim()
    .max(2048)
    .describe("smtp: smtp://host:port (STARTTLS when offered) or smtps://host:port, without credentials."),
  user: z.string().max(320).describe("smtp: AUTH's user name."),
  password: secret("smtp: AUTH's password."),
  apiKey: secret("resend: an API key with sending access."),
  webhookSecret: secret("resend: the signing secret (whsec_…) of this connection's events endpoint."),
  baseUrl: z.string().trim().max(2048).describe("resend: the API's base URL (default https://api.resend.com)."),
  region: z
    .string()
    .trim()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, "must be an AWS region, e.g. eu-west-1")
    .describe("ses: the account's region."),
  accessKeyId: z.string().trim().min(16).max(128).describe("ses: the access key id."),
  secretAccessKey: secret("ses: the secret access key."),
  configurationSet: z.string().trim().min(1).max(64).describe("ses: the configuration set that publishes events."),
  endpoint: z.string().trim().max(2048).describe("ses: the API endpoint (default AWS's)."),
  snsTopicArns: z
    .array(z.string().regex(/^arn:aws[\w-]*:sns:[\w-]+:\d{12}:[\w-]+$/, "must be an SNS topic ARN"))
    .max(20)
    .describe("ses: the SNS topics whose notifications this connection's events endpoint takes."),
  ratePerSecond: z
    .int()
    .min(1)
    .max(100_000)
    .nullable()
    .describe("Messages a second through this connection, across every process; null: no limit."),
  concurrency: z
    .int()
    .min(1)
    .max(1000)
    .nullable()
    .describe("Hand-offs in flight at once through this connection, across every process; null: no limit."),
};

export const SECRET_FIELDS = ["password", "apiKey", "webhookSecret", "secretAccessKey"] as const;
export type SecretField = (typeof SECRET_FIELDS)[number];

type Field = keyof typeof connectionFields;

/** The settings each kind takes, and of those the ones it needs. */
export const KIND_FIELDS: Record<(typeof CONNECTION_KINDS)[number], { allowed: Field[]; required: Field[] }> = {
  smtp: { allowed: ["url", "user", "password"], required: ["url"] },
  resend: { allowed: ["apiKey", "webhookSecret", "baseUrl"], required: ["apiKey"] },
  ses: {
    allowed: ["region", "accessKeyId", "secretAccessKey", "configurationSet", "endpoint", "snsTopicArns"],
    required: ["region", "accessKeyId", "secretAccessKey"],
  },
  simulator: { allowed: [], required: [] },
  local: { allowed: [], required: [] },
};

export const createConnectionSchema = z
  .object({ name: connectionName, kind: z.enum(CONNECTION_KINDS).describe("smtp, resend, ses, simulator or local.") })
  .extend(z.object(connectionFields).partial().shape);

export const updateConnectionSchema = createConnectionSchema.partial();

export type CreateConnectionInput = z.infer<typeof createConnectionSchema>;
export type UpdateConnectionInput = z.infer<typeof updateConnectionSchema>;

/** A domain pattern: labels of letters, digits and `-`, where `*` stands for any run of characters. */
const domainPattern = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^[a-z0-9*]([a-z0-9*.-]*[a-z0-9*])?$/, "must be a domain or a pattern such as *.example.com");

const STREAM = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

export const ruleMatchSchema = z
  .object({
    recipientDomains: z.array(domainPattern).min(1).max(100).optional(),
    mailboxFamilies: z.array(z.enum(MAILBOX_FAMILIES)).min(1).max(4).optional(),
    senderDomains: z.array(domainPattern).min(1).max(100).optional(),
    streams: z
      .array(z.string().trim().regex(STREAM, "must be a stream name such as transactional or bulk"))
      .min(1)
      .max(20)
      .optional(),
    groupIds: z.array(z.string().min(1).max(64)).min(1).max(50).optional(),
    templateIds: z.array(z.string().min(1).max(64)).min(1).max(50).optional(),
  })
  .strict()
  .describe("Every field given must match; an empty match takes every message.");

const ruleFields = {
  name: z.string().trim().max(200).nullable().describe("A label for people."),
  position: z.int().min(0).max(1_000_000).describe("Rules are tried in ascending position; default: after the last."),
  match: ruleMatchSchema,
  connections: z
    .array(connectionName)
    .min(1)
    .max(5)
    .describe("Connection names: the primary first, then the fallbacks in order."),
  enabled: z.boolean().describe("A disabled rule is skipped (default true)."),
};

export const createRuleSchema = z.object({
  name: ruleFields.name.optional(),
  position: ruleFields.position.optional(),
  match: ruleFields.match.optional(),
  connections: ruleFields.connections,
  enabled: ruleFields.enabled.optional(),
});

export const updateRuleSchema = createRuleSchema.partial();

export type CreateRuleInput = z.infer<typeof createRuleSchema>;
export type UpdateRuleInput = z.infer<typeof updateRuleSchema>;

const addressList = z.union([z.string().min(3).max(320), z.array(z.string().min(3).max(320)).min(1).max(50)]);

/** What a dry run is asked about: the fields of a send that routing reads. */
export const dryRunSchema = z.object({
  from: z.string().min(3).max(320).describe("The sender, e.g. `Acme <hello@example.com>`."),
  to: addressList.describe("One recipient or a list."),
  cc: addressList.optional(),
  bcc: addressList.optional(),
  tags: z.array(z.string().min(1).max(200)).max(20).optional().describe("The send's tags, e.g. `stream:bulk`."),
  groupId: z.string().min(1).max(64).nullable().optional(),
  templateId: z.string().min(1).max(64).nullable().optional(),
});

export type DryRunInput = z.infer<typeof dryRunSchema>;
