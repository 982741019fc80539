/** Roles of a workspace membership, weakest first (mirrors db/schema MEMBERSHIP_ROLES; pure for client use). */
export const ROLES = ["MEMBER", "ADMIN", "OWNER"] as const;
export type Role = (typeof ROLES)[number];

/** Members see everything; admins also manage keys, domains, settings and invitations; owners also manage admins. */
export function hasRole(role: Role, atLeast: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(atLeast);
}

export const ROLE_LABELS: Record<Role, string> = { OWNER: "Owner", ADMIN: "Admin", MEMBER: "Member" };
