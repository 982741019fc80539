"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, type FormState } from "@/app/_lib/action";
import { dashboardActor } from "@/app/_lib/audit-actor";
import { eraseInboundMessage } from "@/lib/domain/inbound/erase-inbound-message";

/** Erases one received mail's content (owners and admins), audited with the dashboard user as the actor. */
export async function eraseInboundMessageAction(_previous: FormState, form: FormData): Promise<FormState> {
  return dashboardAction({
    role: "ADMIN",
    run: async (_input, { workspace, user }) => {
      const id = String(form.get("id") ?? "");
      await eraseInboundMessage(workspace.id, id, await dashboardActor(user));
      revalidatePath(`/inbound/${id}`);
      revalidatePath("/inbound");
      return { message: "Erased: its subject, bodies, headers, raw bytes and attachments are gone." };
    },
  });
}
