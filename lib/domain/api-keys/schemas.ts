import { z } from "zod";
import { API_SCOPES } from "./scopes.shared";

const name = z.string().trim().min(1, "Give the key a name.").max(100, "At most 100 characters.");

/** Dashboard forms for API keys; pure, so client components may share them. */
export const createApiKeySchema = z.object({ name });
export const apiKeyIdSchema = z.object({ id: z.string().regex(/^key_[0-9A-Za-z]{16}$/, "Not an API key id.") });

/** Shared by the dashboard, the CLI and POST /v1/api_keys; entries are normalized by createApiKey, which names a bad one. */
export const apiKeyGrantSchema = z.object({
  name,
  scopes: z
    .array(z.enum(API_SCOPES, { message: `Each scope is one of ${API_SCOPES.join(", ")}.` }))
    .min(1, "Give at least one scope.")
    .max(API_SCOPES.length)
    .optional(),
  allowedSenders: z.array(z.string().max(320)).max(50, "At most 50 allowed senders.").optional(),
  allowedIps: z.array(z.string().max(64)).max(50, "At most 50 CIDR ranges.").optional(),
  expiresAt: z.coerce.date({ message: "An ISO 8601 date." }).optional().nullable(),
});

export type ApiKeyGrant = z.infer<typeof apiKeyGrantSchema>;
