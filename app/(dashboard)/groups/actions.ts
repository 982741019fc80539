"use server";

import { revalidatePath } from "next/cache";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { createUnsubscribeGroup } from "@/lib/contacts/create-unsubscribe-group";
import { createGroupSchema, updateGroupSchema } from "@/lib/contacts/schemas";
import { updateUnsubscribeGroupOrThrow } from "@/lib/contacts/update-unsubscribe-group";
import { appErrorState, formValues, parseForm, type FormState } from "../domains/form-state";

/** Creates an unsubscribe group in the current workspace. */
export async function createGroupAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { workspace } = await requireDashboard("ADMIN");
  const values = formValues(form, ["key", "name"]);
  const parsed = parseForm(createGroupSchema, values);
  if ("state" in parsed) return parsed.state;
  try {
    const group = await createUnsubscribeGroup({ workspaceId: workspace.id, ...parsed.data });
    revalidatePath("/groups");
    return { ok: `Created “${group.name}” (key ${group.key}).` };
  } catch (error) {
    return appErrorState(error, values);
  }
}

/** Renames a group of the current workspace (and changes its key while unused); another workspace's id is "not found". */
export async function updateGroupAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { workspace } = await requireDashboard("ADMIN");
  const values = formValues(form, ["id", "key", "name"]);
  const parsed = parseForm(updateGroupSchema, values);
  if ("state" in parsed) return parsed.state;
  try {
    const group = await updateUnsubscribeGroupOrThrow(workspace.id, parsed.data.id, { name: parsed.data.name, key: parsed.data.key });
    revalidatePath("/groups");
    revalidatePath(`/groups/${group.id}`);
    return { ok: "Saved.", values: { id: group.id, key: group.key, name: group.name } };
  } catch (error) {
    return appErrorState(error, values);
  }
}
