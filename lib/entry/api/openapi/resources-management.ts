import { z } from "zod";
import { SUPPRESSION_REASONS } from "@/db/schema/suppressions";
import { requirementCheckResource } from "./resources-deliverability";

/** The management resources (docs/api.md#management), checked against their serializers like the others (resources.test.ts). */
const timestamp = z.iso.datetime().describe("ISO 8601 UTC with milliseconds.");
const id = (prefix: string) => z.string().describe(`A "${prefix}" prefix and 16 base62 characters.`);

export const domainSummaryResource = z.object({
  id: id("dom_"),
  type: z.literal("Domain"),
  name: z.string(),
  status: z
    .enum(["PENDING", "VERIFIED", "FAILED"])
    .describe("VERIFIED once SPF and DKIM are found; only a VERIFIED domain may send."),
  verifiedAt: timestamp.nullable(),
  lastCheckedAt: timestamp.nullable().describe("When the DNS was last checked; null before the first check."),
  lastCheckError: z
    .string()
    .nullable()
    .describe('Every record the last check did not find, e.g. "DKIM missing; DMARC missing (recommended)".'),
  createdAt: timestamp,
});

export const domainRecordResource = z.object({
  kind: z.enum(["SPF", "DKIM", "DMARC"]),
  type: z.literal("TXT"),
  host: z.string().describe("The full name to publish the record at."),
  value: z.string().describe("SPF: merge into an existing v=spf1 record rather than publish a second one."),
  required: z.boolean().describe("SPF and DKIM are required to verify; DMARC is recommended."),
  state: z
    .enum(["found", "missing", "wrong value", "lookup failed", "unchecked"])
    .describe("As of the last check (the answer of POST …/verify: the check just made)."),
  detail: z.string().nullable().describe("What the check just made found, or why the lookup failed; null in reads."),
});

export const domainResource = domainSummaryResource.extend({
  records: z.array(domainRecordResource).describe("The DNS records to publish."),
  returnPath: z
    .object({ host: z.string(), type: z.literal("MX"), note: z.string() })
    .nullable()
    .describe(
      "The deployment's bounce domain (BOUNCE_DOMAIN), where bounces and complaints return; null when not set.",
    ),
  requirements: requirementCheckResource
    .nullable()
    .describe("The newest check of the mailbox providers' sender requirements; null before the first."),
});

export const suppressionResource = z.object({
  id: id("sup_"),
  type: z.literal("Suppression"),
  email: z.string().describe("Lower-cased."),
  reason: z.enum(SUPPRESSION_REASONS),
  emailMessageId: z.string().nullable().describe("The message whose hard bounce or complaint added it."),
  detail: z.string().nullable(),
  createdAt: timestamp.describe("When it was first added."),
  updatedAt: timestamp.describe("When it was last added again."),
});

export const removedSuppression = suppressionResource.extend({ deleted: z.literal(true) });

export const countMeta = z.object({ count: z.int() });

export const emailPageMeta = z.object({
  limit: z.int(),
  nextAfter: z.string().nullable().describe("An address: pass as after= for the next page; null at the end."),
  previousBefore: z
    .string()
    .nullable()
    .describe("An address: pass as before= for the previous page; null at the start."),
});

export const apiKeyResource = z.object({
  id: id("key_").describe("Also the Basic username."),
  type: z.literal("ApiKey"),
  name: z.string(),
  secretHint: z.string().describe("The secret's first 4 characters, to tell keys apart."),
  scopes: z.array(z.string()).describe("Fixed at creation (docs/api.md#scopes)."),
  allowedSenders: z
    .array(z.string())
    .describe("Exact addresses or domains a send may use as from; empty: any verified sender."),
  allowedIps: z.array(z.string()).describe("CIDR ranges the key may be used from; empty: anywhere."),
  expiresAt: timestamp.nullable(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
});

export const createdApiKeyResource = apiKeyResource.extend({
  secret: z.string().describe("The key's password: shown in this answer only, never again (only its hash is stored)."),
});

export const workspaceResource = z.object({
  id: id("ws_"),
  type: z.literal("Workspace"),
  name: z.string(),
  testMode: z.boolean().describe("Live sends only to the workspace's members; other recipients are refused."),
  trackingEnabled: z.boolean().describe("Open and click tracking."),
  defaultLocale: z
    .string()
    .nullable()
    .describe(
      "Canonical BCP 47 tag a template send asks for when neither the send nor its contact names a locale; null: none (the template's default locale renders).",
    ),
  bodyRetentionDays: z
    .int()
    .nullable()
    .describe("Days bodies are kept as set for this workspace (1–365); null: the instance default."),
  metadataRetentionDays: z
    .int()
    .nullable()
    .describe("Days messages, timelines, inbound mail and webhook logs are kept as set (7–3,650); null: the default."),
  legalHold: z.boolean().describe("While true, nothing of this workspace is purged."),
  legalHoldAt: timestamp.nullable().describe("When the hold was put on; null without one."),
  retention: z
    .object({
      bodyDays: z
        .int()
        .describe("The body window the purges follow: the set value or the default, within the ceiling."),
      metadataDays: z.int().describe("The metadata window the purges follow, never shorter than bodyDays."),
      maxBodyDays: z.int().describe("The instance's ceiling for bodyRetentionDays (RETENTION_MAX_BODY_DAYS)."),
      maxMetadataDays: z
        .int()
        .describe("The instance's ceiling for metadataRetentionDays (RETENTION_MAX_METADATA_DAYS)."),
    })
    .describe("Effective retention (docs/retention.md)."),
  system: z.boolean().describe("The deployment's own system mail workspace: always live and untracked."),
  sending: z.object({
    paused: z.boolean(),
    reason: z.string().nullable(),
    pausedAt: timestamp.nullable(),
    automatic: z.boolean().describe("Paused by the bounce or complaint guard rather than by hand."),
    pausedMessages: z.int().describe("Live messages waiting as PAUSED."),
    warning: z
      .string()
      .nullable()
      .describe(
        "Set while the complaint or bounce rate is past half its automatic pause threshold (workspace.deliverability_warning); null otherwise.",
      ),
    warningAt: timestamp.nullable().describe("When the warning was raised."),
  }),
});

export const resumedWorkspace = workspaceResource.extend({
  resumed: z.int().describe("Messages released to delivery."),
});

export const contactResource = z.object({
  id: id("contact_"),
  type: z.literal("Contact"),
  email: z.string().describe("Lower-cased."),
  name: z.string().nullable().describe("The display name it was last sent to with."),
  locale: z
    .string()
    .nullable()
    .describe(
      "Canonical BCP 47 tag its mail renders in when a send names none: set by PATCH, or learnt from a send that names a locale (beyond the published API).",
    ),
  createdAt: timestamp,
});

export const contactDetailResource = contactResource.extend({
  updatedAt: timestamp,
  groups: z
    .array(
      z.object({
        id: z.string(),
        key: z.string(),
        name: z.string(),
        unsubscribed: z.boolean(),
        unsubscribedAt: timestamp.nullable(),
      }),
    )
    .describe("Every group of the workspace."),
  messages: z
    .array(
      z.object({
        id: z.string(),
        status: z.string(),
        sandbox: z.boolean(),
        subject: z.string().nullable(),
        templateId: z.string().nullable(),
        createdAt: timestamp,
      }),
    )
    .describe("The 50 newest messages addressed to the contact (To), newest first."),
  suppression: z
    .object({
      reason: z.enum(SUPPRESSION_REASONS),
      detail: z.string().nullable(),
      emailMessageId: z.string().nullable(),
      createdAt: timestamp,
    })
    .nullable(),
});

export const unsubscribeGroupResource = z.object({
  id: id("group_"),
  type: z.literal("UnsubscribeGroup"),
  key: z.string(),
  name: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  unsubscribedCount: z.int().describe("Contacts who left the group."),
  messageCount: z.int().describe("Messages sent with it, counted up to 10,001 (more: 10,001)."),
  keyLocked: z
    .boolean()
    .optional()
    .describe(
      "One group's answer: true once a message, unsubscribe or workflow step uses it (the key can no longer change).",
    ),
});
