import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Executor, Tx } from "@/db/client";
import { unsubscribeGroups } from "@/db/schema";
// Not (yet) re-exported by db/schema/index.ts.
import { groupUnsubscribes, suppressions, type SUPPRESSION_REASONS } from "@/db/schema/suppressions";
import { bareAddress } from "@/lib/foundation/addresses/sender-address.shared";
import { recordEvent } from "@/lib/records/timeline/record-event";

export interface SuppressedRecipient {
  email: string;
  /** UNSUBSCRIBED: from the message's group; otherwise the reason the address is on the suppression list. */
  reason: "UNSUBSCRIBED" | (typeof SUPPRESSION_REASONS)[number];
  /** For UNSUBSCRIBED: the group's name, for the timeline sentence. */
  groupName?: string;
}

export interface FilteredRecipients {
  to: string[];
  cc: string[];
  bcc: string[];
  suppressed: SuppressedRecipient[];
  remaining: number;
}

interface MessageRecipients {
  id: string;
  workspaceId: string;
  groupId: string | null;
  to: string[];
  cc: string[];
  bcc: string[];
}

const addressOf = (entry: string) => (bareAddress(entry) ?? entry).trim().toLowerCase();

/**
 * Without those unsubscribed from its group (group mail only: mail without one is transactional) and those on the
 * suppression list (docs/api.md#decided-unsubscribe-groups-suppression-contacts). Reads only.
 */
export async function filterSuppressedRecipients(
  db: Executor,
  message: MessageRecipients,
): Promise<FilteredRecipients> {
  return (await filterSuppressedRecipientsOfMessages(db, [message])).get(message.id)!;
}

/** Set-based: two queries at most, whatever the number of messages. */
export async function filterSuppressedRecipientsOfMessages(
  db: Executor,
  messages: MessageRecipients[],
): Promise<Map<string, FilteredRecipients>> {
  const addresses = new Set<string>();
  for (const message of messages)
    for (const entry of [...message.to, ...message.cc, ...message.bcc]) addresses.add(addressOf(entry));
  const workspaceIds = [...new Set(messages.map((message) => message.workspaceId))];
  const groupIds = [...new Set(messages.flatMap((message) => (message.groupId ? [message.groupId] : [])))];
  const listed = new Map<string, SuppressedRecipient>();
  const unsubscribed = new Map<string, SuppressedRecipient>();
  if (addresses.size > 0) {
    const rows = await db
      .select({ workspaceId: suppressions.workspaceId, email: suppressions.email, reason: suppressions.reason })
      .from(suppressions)
      .where(and(inArray(suppressions.workspaceId, workspaceIds), inArray(suppressions.email, [...addresses])));
    for (const row of rows) listed.set(`${row.workspaceId}\n${row.email}`, { email: row.email, reason: row.reason });
  }
  if (addresses.size > 0 && groupIds.length > 0) {
    const rows = await db
      .select({ groupId: groupUnsubscribes.groupId, email: groupUnsubscribes.email, groupName: unsubscribeGroups.name })
      .from(groupUnsubscribes)
      .innerJoin(unsubscribeGroups, eq(unsubscribeGroups.id, groupUnsubscribes.groupId))
      .where(
        and(
          inArray(groupUnsubscribes.workspaceId, workspaceIds),
          inArray(groupUnsubscribes.groupId, groupIds),
          inArray(groupUnsubscribes.email, [...addresses]),
        ),
      );
    for (const row of rows)
      unsubscribed.set(`${row.groupId}\n${row.email}`, {
        email: row.email,
        reason: "UNSUBSCRIBED",
        groupName: row.groupName,
      });
  }
  return new Map(messages.map((message) => [message.id, filterOne(message, listed, unsubscribed)]));
}

function filterOne(
  message: MessageRecipients,
  listed: Map<string, SuppressedRecipient>,
  unsubscribed: Map<string, SuppressedRecipient>,
): FilteredRecipients {
  const suppressed = new Map<string, SuppressedRecipient>();
  const entries = [...message.to, ...message.cc, ...message.bcc];
  for (const address of new Set(entries.map(addressOf))) {
    const hit =
      listed.get(`${message.workspaceId}\n${address}`) ??
      (message.groupId ? unsubscribed.get(`${message.groupId}\n${address}`) : undefined);
    if (hit) suppressed.set(address, hit);
  }
  const keep = (list: string[]) => list.filter((entry) => !suppressed.has(addressOf(entry)));
  const to = keep(message.to);
  const cc = keep(message.cc);
  const bcc = keep(message.bcc);
  return { to, cc, bcc, suppressed: [...suppressed.values()], remaining: to.length + cc.length + bcc.length };
}

const REASON_TEXT = {
  HARD_BOUNCE: "on the suppression list after a hard bounce",
  COMPLAINT: "on the suppression list after a complaint",
  MANUAL: "on the suppression list (added by hand)",
} as const;

/**
 * With nobody left the message is SUCCEEDED without sentAt. recordEvent does not move the status on SUPPRESSED (some
 * recipients may still go), so that one move is made here, on the still-PENDING message.
 */
export async function recordSuppressed(
  tx: Tx,
  message: { id: string; workspaceId: string },
  suppressed: SuppressedRecipient[],
  options: { at?: Date; nobodyLeft?: boolean } = {},
): Promise<void> {
  if (suppressed.length === 0) return;
  const parts = suppressed.map(
    (s) =>
      `${s.email} (${s.reason === "UNSUBSCRIBED" ? `unsubscribed from the group "${s.groupName}"` : REASON_TEXT[s.reason]})`,
  );
  const sentence = options.nobodyLeft
    ? `Not sent: every recipient is suppressed: ${parts.join(", ")}.`
    : `Not sent to ${parts.join(", ")}; sent to the other recipients.`;
  await recordEvent(tx, {
    workspaceId: message.workspaceId,
    messageId: message.id,
    code: "EMAIL_MESSAGE_SUPPRESSED",
    message: sentence,
    at: options.at,
    details: { suppressed: suppressed.map(({ email, reason }) => ({ email, reason })) },
    settles: options.nobodyLeft,
  });
}
