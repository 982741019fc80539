import { z } from "zod";
import { invalidParameter } from "@/lib/foundation/errors";
import { parseLimit, queryParam } from "@/lib/foundation/pagination";
import type { ContactDetail } from "./get-contact-detail";
import type { UnsubscribeGroupSummary } from "./list-unsubscribe-groups";
import type { ContactRow } from "./search-contacts";
import type { UnsubscribeGroup } from "./update-unsubscribe-group";

// Contacts and unsubscribe groups over /v1 (docs/api.md#contacts-and-unsubscribe-groups).
const groupKey = z.string().max(100).describe("1–100 letters, digits, or _ . : -; what sends name as groupKey.");
const groupName = z.string().max(200).describe("Shown to recipients on the unsubscribe page.");

export const createGroupApiSchema = z.object({ key: groupKey, name: groupName });
export const updateGroupApiSchema = z.object({
  name: groupName,
  key: groupKey
    .optional()
    .describe(
      "Changes only while nothing uses the group (no message, unsubscribe or workflow step): 400 naming key otherwise.",
    ),
});
export const setUnsubscribesApiSchema = z.object({
  groupIds: z
    .array(z.string().max(64))
    .max(200)
    .describe("Exactly the groups the contact is unsubscribed from; [] subscribes it to every group again."),
});

export const updateContactApiSchema = z.object({
  locale: z
    .string()
    .max(100)
    .nullable()
    .describe(
      "BCP 47 tag (canonicalised: en_us → en-US) the contact's mail renders in when a send names no locale; null clears it. 400 naming locale when not a well-formed tag.",
    ),
});

export const CONTACT_PAGE_MAX = 200;

/** GET /v1/contacts' query: query (address prefix with "@", else address or name prefix), limit, after/before (an address). */
export function parseContactListQuery(params: URLSearchParams) {
  const out: { query?: string; after?: string; before?: string; limit: number } = {
    limit: parseLimit(queryParam(params, "limit"), CONTACT_PAGE_MAX),
  };
  for (const name of ["query", "after", "before"] as const) {
    const value = queryParam(params, name);
    if (value === null || value === "") continue;
    if (value.length > 320) throw invalidParameter(name, `${name} must be at most 320 characters.`);
    out[name] = name === "query" ? value : value.toLowerCase();
  }
  if (out.after && out.before) throw invalidParameter("before", "Give after or before, not both.");
  return out;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function serializeContact(row: ContactRow) {
  return {
    id: row.id,
    type: "Contact" as const,
    email: row.email,
    name: row.name,
    locale: row.locale,
    createdAt: row.createdAt.toISOString(),
  };
}

export function serializeContactDetail(detail: ContactDetail) {
  return {
    ...serializeContact(detail.contact),
    updatedAt: detail.contact.updatedAt.toISOString(),
    groups: detail.groups.map((group) => ({
      id: group.id,
      key: group.key,
      name: group.name,
      unsubscribed: group.unsubscribedAt !== null,
      unsubscribedAt: iso(group.unsubscribedAt),
    })),
    messages: detail.messages.map((message) => ({
      id: message.id,
      status: message.status,
      sandbox: message.sandbox,
      subject: message.subject,
      templateId: message.templateId,
      createdAt: message.createdAt.toISOString(),
    })),
    suppression: detail.suppression
      ? {
          reason: detail.suppression.reason,
          detail: detail.suppression.detail,
          emailMessageId: detail.suppression.emailMessageId,
          createdAt: detail.suppression.createdAt.toISOString(),
        }
      : null,
  };
}

/** An unsubscribe group with its counts (a group just created has none yet). */
export function serializeGroup(group: UnsubscribeGroupSummary) {
  return {
    id: group.id,
    type: "UnsubscribeGroup" as const,
    key: group.key,
    name: group.name,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
    unsubscribedCount: group.unsubscribedCount,
    messageCount: group.messageCount,
  };
}

export const newGroupSummary = (group: UnsubscribeGroup): UnsubscribeGroupSummary => ({
  ...group,
  unsubscribedCount: 0,
  messageCount: 0,
});
