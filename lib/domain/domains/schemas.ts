import { z } from "zod";

/** Dashboard forms for domains; the full name check is addDomain's (one place decides what a domain is). */
export const addDomainSchema = z.object({
  name: z.string().trim().min(1, "Enter a domain, e.g. mail.example.com.").max(253, "At most 253 characters."),
});
export const domainIdSchema = z.object({ id: z.string().regex(/^dom_[0-9A-Za-z]{16}$/, "Not a domain id.") });

export const addDomainApiSchema = z.object({
  name: z
    .string({ message: "name must be a domain name, e.g. mail.example.com." })
    .trim()
    .min(1, "name must be a domain name, e.g. mail.example.com.")
    .max(253, "name must be at most 253 characters.")
    .describe("The domain to send from, e.g. mail.example.com."),
});
