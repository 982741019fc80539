"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dashboardAction, formValues, type FormState } from "@/app/_lib/action";
import { simulateReply } from "@/lib/flows/inbound/simulate-reply";

const simulateReplySchema = z.object({
  messageId: z.string().regex(/^em_[0-9A-Za-z]{16}$/, "must be a message id (em_…)"),
});

type SimulateState = FormState<{ message?: string; inboundMessageIds?: string[] }>;

/**
 * The message page's "Simulate a reply" (docs/dashboard.md#inbound-inbound): a reply handed to this instance's inbound
 * listener over SMTP. MEMBER, like Resend: it is mail into the workspace's own inbound path, and any route
 * actions it triggers are the workspace's own.
 */
export async function simulateReplyAction(_previous: SimulateState, form: FormData): Promise<SimulateState> {
  const values = formValues(form, ["messageId"]);
  return dashboardAction({
    role: "MEMBER",
    schema: simulateReplySchema,
    input: values,
    values,
    run: async ({ messageId }, { workspace }) => {
      const reply = await simulateReply(workspace.id, messageId);
      revalidatePath(`/emails/${messageId}`);
      revalidatePath("/inbound");
      const stored = reply.inboundMessageIds.length;
      return {
        message: stored
          ? `Reply received through the inbound listener (to ${reply.to}):`
          : `Reply handed to the inbound listener (to ${reply.to}); it stored nothing new.`,
        inboundMessageIds: reply.inboundMessageIds,
      };
    },
  });
}
