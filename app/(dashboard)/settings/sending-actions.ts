"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dashboardActor } from "@/app/_lib/audit-actor";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { AppError } from "@/lib/foundation/errors";
import { eraseMessage } from "@/lib/domain/messages/erase-message";
import { discardPausedMessages } from "@/lib/domain/workspaces/discard-paused-messages";
import { pauseSending } from "@/lib/domain/workspaces/pause-sending";
import { resumeSending } from "@/lib/domain/workspaces/resume-sending";

export interface SendingActionState {
  error?: string;
  notice?: string;
  /** The id typed, kept after a refusal so the field is not emptied. */
  messageId?: string;
}

const reasonSchema = z.string().trim().max(500);
const messageIdSchema = z
  .string()
  .trim()
  .regex(/^em_[0-9A-Za-z]{16}$/, "Give a message id: em_ followed by 16 letters and digits.");

/** Settings → Sending: pause (admins only; the reason is shown to everyone). */
export async function pauseSendingAction(_previous: SendingActionState, form: FormData): Promise<SendingActionState> {
  const { workspace, user } = await requireDashboard("ADMIN");
  const reason = reasonSchema.safeParse(form.get("reason") ?? "");
  if (!reason.success) return { error: "Keep the reason under 500 characters." };
  await pauseSending({
    workspaceId: workspace.id,
    reason: reason.data || "Paused from the dashboard.",
    actor: await dashboardActor(user),
  });
  revalidatePath("/settings");
  return { notice: "Sending is paused. New live messages wait as PAUSED." };
}

export async function resumeSendingAction(_previous: SendingActionState): Promise<SendingActionState> {
  const { workspace, user } = await requireDashboard("ADMIN");
  const { resumed } = await resumeSending({ workspaceId: workspace.id, actor: await dashboardActor(user) });
  revalidatePath("/settings");
  return { notice: `Sending resumed; ${resumed} waiting ${resumed === 1 ? "message goes" : "messages go"} out now.` };
}

export async function discardPausedAction(_previous: SendingActionState): Promise<SendingActionState> {
  const { workspace } = await requireDashboard("ADMIN");
  const { discarded } = await discardPausedMessages({ workspaceId: workspace.id });
  revalidatePath("/settings");
  return { notice: `${discarded} paused ${discarded === 1 ? "message was" : "messages were"} discarded.` };
}

/** Erase a message's content (admins only); an id of another workspace is "not found", like an unknown one. */
export async function eraseMessageAction(_previous: SendingActionState, form: FormData): Promise<SendingActionState> {
  const { workspace } = await requireDashboard("ADMIN");
  const typed = String(form.get("messageId") ?? "");
  const id = messageIdSchema.safeParse(typed);
  if (!id.success) return { error: id.error.issues[0].message, messageId: typed };
  try {
    await eraseMessage({ workspaceId: workspace.id, messageId: id.data });
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND")
      return { error: `No message ${id.data} in this workspace.`, messageId: typed };
    throw error;
  }
  revalidatePath(`/emails/${id.data}`);
  return {
    notice: `Message ${id.data} was erased: its bodies, variables and stored MIME are gone; its metadata and timeline stay.`,
  };
}
