import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "@/lib/domain/users/password";
import { ROLES } from "@/lib/foundation/access/roles.shared";

/** Shared by the settings server actions and the use cases (docs/architecture.md#naming-and-size: one schema per input). */
export const inviteMemberSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter an email address.").max(254)),
  role: z.enum(ROLES, "Choose Owner, Admin or Member."),
});
export type InviteMemberInput = z.input<typeof inviteMemberSchema>;

export const changeMemberRoleSchema = z.object({
  userId: z.string().min(1).max(64),
  role: z.enum(ROLES, "Choose Owner, Admin or Member."),
});
export type ChangeMemberRoleInput = z.input<typeof changeMemberRoleSchema>;

export const acceptInvitationAsNewUserSchema = z.object({
  name: z.string().trim().max(200).optional(),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `The password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`)
    .max(MAX_PASSWORD_LENGTH, `The password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`),
});
export type AcceptInvitationAsNewUserInput = z.input<typeof acceptInvitationAsNewUserSchema>;
