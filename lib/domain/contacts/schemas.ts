import { z } from "zod";

/** Dashboard forms for contacts, unsubscribe groups and the suppression list; pure for client use. */
const groupKey = z
  .string()
  .trim()
  .regex(/^[a-zA-Z0-9_.:-]{1,100}$/, "1–100 letters, digits, or _ . : -");
const groupName = z.string().trim().min(1, "Give the group a name.").max(200, "At most 200 characters.");

export const createGroupSchema = z.object({ key: groupKey, name: groupName });
export const updateGroupSchema = z.object({
  id: z.string().regex(/^group_[0-9A-Za-z]{16}$/, "Not a group id."),
  name: groupName,
  key: groupKey,
});
export const suppressionEmailSchema = z.object({
  email: z.string().trim().min(3, "Enter an email address.").max(320, "Too long."),
});
export const contactLocaleSchema = z.object({
  id: z.string().regex(/^contact_[0-9A-Za-z]{16}$/, "Not a contact id."),
  locale: z.string().trim().max(100, "At most 100 characters."),
});
