import "server-only";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { memberships, users } from "@/db/schema/index";
import { isSimulatorAddress } from "@/lib/foundation/addresses/simulator.shared";
import { AppError } from "@/lib/foundation/errors";
import type { SendCommand } from "./parse-send-request";
import type { PrepareContext } from "./prepare-message";

export async function listMemberEmails(db: Executor, workspaceId: string): Promise<Set<string>> {
  const rows = await db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId));
  return new Set(rows.map((row) => row.email.toLowerCase()));
}

/** A workspace in test mode sends live mail to its members only; the sandbox goes nowhere, so it is not checked. */
export async function assertLiveRecipientsInTestMode(
  db: Executor,
  command: SendCommand,
  context: PrepareContext,
  p: (name: string) => string,
): Promise<void> {
  if (!context.workspace.testMode || context.sandbox) return;
  const members = context.memberEmails ?? (await listMemberEmails(db, context.workspace.id));
  assertTestModeRecipients(command, members, p);
}

export function assertTestModeRecipients(
  command: Pick<SendCommand, "to" | "cc" | "bcc">,
  members: Set<string>,
  p: (name: string) => string,
) {
  for (const field of ["to", "cc", "bcc"] as const) {
    // The outcome simulator's addresses reach nobody: a workspace in test mode may use them too.
    const outsider = command[field].find(
      (recipient) => !members.has(recipient.address.toLowerCase()) && !isSimulatorAddress(recipient.address),
    );
    if (outsider) {
      throw new AppError(
        "EMAIL_MESSAGE_INVALID_TEST_MODE_RECIPIENT_ERROR",
        `The workspace is in test mode: live mail may only go to its members, and ${outsider.address} is not one. Use the sandbox endpoint, or turn test mode off in the settings.`,
        { param: p(field) },
      );
    }
  }
}
