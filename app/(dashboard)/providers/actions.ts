"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction, formValues, type FormState } from "@/app/_lib/action";
import { dashboardActor } from "@/app/_lib/audit-actor";
import { dryRunRoute } from "@/lib/delivery/routing/dry-run";
import { createConnection } from "@/lib/domain/providers/create-connection";
import { createRule } from "@/lib/domain/providers/create-rule";
import { deleteConnection } from "@/lib/domain/providers/delete-connection";
import { deleteRule } from "@/lib/domain/providers/delete-rule";
import {
  CONNECTION_ECHO,
  connectionBodyFromForm,
  DRY_RUN_ECHO,
  dryRunBodyFromForm,
  RULE_ECHO,
  ruleBodyFromForm,
} from "./form-body";

// The Providers page's actions (docs/delivery.md#routing-and-failover): changes are for owners (a connection holds
// the workspace's provider credentials); each calls the use case /v1/providers and /v1/routing_rules call, with
// the signed-in user as the audit log's actor. The dry run changes nothing, so every member may ask it.

export type DryRunResult = Awaited<ReturnType<typeof dryRunRoute>>;
export type DryRunState = FormState<{ result: DryRunResult; values: Record<string, string> }>;

const refresh = () => revalidatePath("/providers");

/** A workspace connection; its secrets are sealed by the use case and never come back. */
export async function createConnectionAction(_previous: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form, CONNECTION_ECHO);
  return dashboardAction({
    role: "OWNER",
    input: connectionBodyFromForm(form),
    values,
    run: async (input, { workspace, user }) => {
      const created = await createConnection(workspace.id, input, await dashboardActor(user));
      refresh();
      return { message: `Added ${created.name}.` };
    },
  });
}

/** Refused (409, in words) while a routing rule still names the connection. */
export async function deleteConnectionAction(_previous: FormState, form: FormData): Promise<FormState> {
  const id = String(form.get("id") ?? "");
  return dashboardAction({
    role: "OWNER",
    run: async (_input, { workspace, user }) => {
      const removed = await deleteConnection(workspace.id, id, await dashboardActor(user));
      refresh();
      return { message: `Deleted ${removed.name}.` };
    },
  });
}

/** A rule after the workspace's last: what it matches, and its connections, the primary first. */
export async function createRuleAction(_previous: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form, RULE_ECHO);
  values.mailboxFamilies = form.getAll("mailboxFamilies").map(String).join(",");
  return dashboardAction({
    role: "OWNER",
    input: ruleBodyFromForm(form),
    values,
    run: async (input, { workspace, user }) => {
      const created = await createRule(workspace.id, input, await dashboardActor(user));
      refresh();
      return { message: `Added ${created.name ?? "the rule"} at position ${created.position}.` };
    },
  });
}

/** Messages it matched fall to the next rule, or to the default connection. */
export async function deleteRuleAction(_previous: FormState, form: FormData): Promise<FormState> {
  const id = String(form.get("id") ?? "");
  return dashboardAction({
    role: "OWNER",
    run: async (_input, { workspace, user }) => {
      const removed = await deleteRule(workspace.id, id, await dashboardActor(user));
      refresh();
      return { message: `Deleted ${removed.name ?? removed.id}.` };
    },
  });
}

/** Which rule and connections such a message would take now; nothing is stored or sent. The form keeps what was typed. */
export async function dryRunAction(_previous: DryRunState, form: FormData): Promise<DryRunState> {
  const values = formValues(form, DRY_RUN_ECHO);
  return dashboardAction({
    input: dryRunBodyFromForm(form),
    values,
    run: async (input, { workspace }) => ({ result: await dryRunRoute(workspace.id, input), values }),
  });
}
