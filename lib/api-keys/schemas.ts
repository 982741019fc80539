import { z } from "zod";

/** Dashboard forms for API keys; pure, so client components may share them. */
export const createApiKeySchema = z.object({ name: z.string().trim().min(1, "Give the key a name.").max(100, "At most 100 characters.") });
export const apiKeyIdSchema = z.object({ id: z.string().regex(/^key_[0-9A-Za-z]{16}$/, "Not an API key id.") });
