import { ROLE_LABELS, type Role } from "@/lib/foundation/access/roles.shared";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

export function invitationMail(input: {
  workspaceName: string;
  role: Role;
  inviter: string;
  url: string;
  expiresAt: Date;
}) {
  const role = ROLE_LABELS[input.role];
  const expires = input.expiresAt.toUTCString();
  const subject = `${input.inviter} invited you to ${input.workspaceName} on Postwerk`;
  const html = [
    `<p>${escapeHtml(input.inviter)} invited you to join the workspace <strong>${escapeHtml(input.workspaceName)}</strong> as ${role}.</p>`,
    `<p><a href="${escapeHtml(input.url)}">Accept the invitation</a></p>`,
    `<p>The link works once, until ${expires}. If you did not expect it, ignore this email.</p>`,
  ].join("\n");
  const text = [
    `${input.inviter} invited you to join the workspace ${input.workspaceName} as ${role}.`,
    "",
    `Accept the invitation: ${input.url}`,
    "",
    `The link works once, until ${expires}. If you did not expect it, ignore this email.`,
  ].join("\n");
  return { subject, html, text };
}
