import { z } from "zod";

/** Settings a workspace admin changes in the dashboard; each field optional, so each card saves its own part. */
export const updateWorkspaceSettingsSchema = z
  .object({
    name: z.string().trim().min(1, "Give the workspace a name.").max(100, "At most 100 characters."),
    testMode: z.boolean(),
    trackingEnabled: z.boolean(),
    /** Canonicalised by the use case (docs/templates.md#where-the-locale-comes-from); null clears it. */
    defaultLocale: z
      .string()
      .trim()
      .max(100, "At most 100 characters.")
      .nullable()
      .describe(
        "BCP 47 tag (canonicalised: fr_ca → fr-CA) a template send asks for when neither the send nor its contact names a locale; null clears it. 400 naming defaultLocale when not a well-formed tag.",
      ),
    /** docs/retention.md#windows; the instance's ceilings are checked by the use case. */
    bodyRetentionDays: z
      .number("bodyRetentionDays must be a whole number of days or null.")
      .int("bodyRetentionDays must be a whole number of days.")
      .min(1, "bodyRetentionDays: from 1 to 365 days.")
      .max(365, "bodyRetentionDays: from 1 to 365 days.")
      .nullable()
      .describe(
        "Days bodies (HTML, text, variables, stored MIME, attachments, inbound content and raw mail) are kept, 1–365; null follows the instance default (RETENTION_DAYS). 400 naming bodyRetentionDays past RETENTION_MAX_BODY_DAYS or above metadataRetentionDays.",
      ),
    metadataRetentionDays: z
      .number("metadataRetentionDays must be a whole number of days or null.")
      .int("metadataRetentionDays must be a whole number of days.")
      .min(7, "metadataRetentionDays: from 7 to 3650 days.")
      .max(3650, "metadataRetentionDays: from 7 to 3650 days.")
      .nullable()
      .describe(
        "Days messages, timelines, inbound mail and webhook logs are kept, 7–3,650, never shorter than bodies; null follows the instance default (METADATA_RETENTION_DAYS). A purged message's id answers 410 MESSAGE_PURGED.",
      ),
    legalHold: z
      .boolean("legalHold must be true or false.")
      .describe("While true, nothing of this workspace is purged (docs/retention.md#legal-hold)."),
  })
  .partial();
export type UpdateWorkspaceSettingsInput = z.input<typeof updateWorkspaceSettingsSchema>;
