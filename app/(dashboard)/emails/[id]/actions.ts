"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { dashboardAction, formValues, type FormState } from "@/app/_lib/action";
import { recordActivity } from "@/lib/records/activity/record-activity";
import { cancelMessage } from "@/lib/domain/messages/cancel-message";
import { rescheduleMessage } from "@/lib/domain/messages/reschedule-message";
import { resendMessage } from "@/lib/sending/resend-message";

const resendFormSchema = z.object({
  messageId: z.string().regex(/^em_[0-9A-Za-z]{16}$/, "must be a message id (em_…)"),
});

/**
 * The message page's "Resend" (docs/dashboard/emails.md#resend). MEMBER, not ADMIN: members already
 * send mail from the dashboard (template test sends), and a resend repeats mail the workspace already
 * sent through the same checks. Written to the activity log like an API call (no key: the dashboard),
 * then the browser goes to the new message.
 */
export async function resendMessageAction(_previous: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form, ["messageId"]);
  const result = await dashboardAction({
    role: "MEMBER",
    schema: resendFormSchema,
    input: values,
    values,
    run: async ({ messageId }, { workspace, user }) => {
      const started = performance.now();
      const { message } = await resendMessage({ workspaceId: workspace.id, messageId, submittedVia: "dashboard" });
      recordActivity({
        workspaceId: workspace.id,
        apiKeyId: null,
        method: "POST",
        path: `/emails/${messageId}/resend`,
        status: 201,
        durationMs: Math.round(performance.now() - started),
        sandbox: message.sandbox,
        errorCode: null,
        resourceId: message.id,
        requestBody: { via: "dashboard", userId: user.id, email: user.email },
        responseBody: { data: { id: message.id, resentFromId: messageId, status: message.status } },
      });
      return { newId: message.id };
    },
  });
  if (result.ok) redirect(`/emails/${result.newId}`);
  return result;
}

const scheduleFormSchema = z.object({
  messageId: resendFormSchema.shape.messageId,
  scheduledAt: z.string().max(64).optional(),
});

/**
 * The message page's "Cancel" (docs/dashboard.md#scheduled-mail): ADMIN, as the use case checks again
 * with the actor. A message already handed over answers the use case's 409 sentence beside the button.
 */
export async function cancelMessageAction(_previous: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form, ["messageId"]);
  return dashboardAction({
    role: "ADMIN",
    schema: scheduleFormSchema,
    input: values,
    values,
    run: async ({ messageId }, { workspace, user, role }) => {
      await cancelMessage({
        workspaceId: workspace.id,
        messageId,
        by: `by ${user.email} in the dashboard`,
        actor: { userId: user.id, workspaceId: workspace.id, role },
      });
      return { message: "Cancelled: this message will not be sent." };
    },
  });
}

/** "Reschedule": the browser turns its local date and time into an ISO instant (scheduledAt) before submitting. */
export async function rescheduleMessageAction(_previous: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form, ["messageId", "scheduledAt"]);
  return dashboardAction({
    role: "ADMIN",
    schema: scheduleFormSchema,
    input: values,
    values,
    run: async ({ messageId, scheduledAt }, { workspace, user, role }) => {
      const message = await rescheduleMessage({
        workspaceId: workspace.id,
        messageId,
        scheduledAt,
        by: `by ${user.email} in the dashboard`,
        actor: { userId: user.id, workspaceId: workspace.id, role },
      });
      return { message: `Rescheduled for ${message.scheduledAt!.toISOString()}.` };
    },
  });
}
