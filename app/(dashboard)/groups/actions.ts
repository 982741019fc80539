"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, formValues, type FormState } from "@/app/_lib/action";
import { dashboardActor } from "@/app/_lib/audit-actor";
import { createUnsubscribeGroup } from "@/lib/domain/contacts/create-unsubscribe-group";
import { createGroupSchema, updateGroupSchema } from "@/lib/domain/contacts/schemas";
import { updateUnsubscribeGroupOrThrow } from "@/lib/domain/contacts/update-unsubscribe-group";

/** Creates an unsubscribe group in the current workspace. */
export async function createGroupAction(_previous: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form, ["key", "name"]);
  return dashboardAction({
    role: "ADMIN",
    schema: createGroupSchema,
    input: values,
    values,
    run: async (input, { workspace, user }) => {
      const group = await createUnsubscribeGroup({
        workspaceId: workspace.id,
        ...input,
        actor: await dashboardActor(user),
      });
      revalidatePath("/groups");
      return { message: `Created “${group.name}” (key ${group.key}).` };
    },
  });
}

/** Renames a group of the current workspace (and changes its key while unused); another workspace's id is "not found". */
export async function updateGroupAction(_previous: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form, ["id", "key", "name"]);
  return dashboardAction({
    role: "ADMIN",
    schema: updateGroupSchema,
    input: values,
    values,
    run: async ({ id, name, key }, { workspace, user }) => {
      const group = await updateUnsubscribeGroupOrThrow(workspace.id, id, { name, key }, await dashboardActor(user));
      revalidatePath("/groups");
      revalidatePath(`/groups/${group.id}`);
      return { message: "Saved.", values: { id: group.id, key: group.key, name: group.name } };
    },
  });
}
