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
  })
  .partial();
export type UpdateWorkspaceSettingsInput = z.input<typeof updateWorkspaceSettingsSchema>;
