import { z } from "zod";

/** Settings a workspace admin changes in the dashboard; each field optional, so each card saves its own part. */
export const updateWorkspaceSettingsSchema = z
  .object({
    name: z.string().trim().min(1, "Give the workspace a name.").max(100, "At most 100 characters."),
    testMode: z.boolean(),
    trackingEnabled: z.boolean(),
  })
  .partial();
export type UpdateWorkspaceSettingsInput = z.input<typeof updateWorkspaceSettingsSchema>;
