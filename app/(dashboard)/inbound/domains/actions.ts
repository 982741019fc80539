"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { dashboardAction, formValues, type FormState } from "@/app/_lib/action";
import { dashboardActor } from "@/app/_lib/audit-actor";
import { addInboundDomain } from "@/lib/domain/inbound/add-inbound-domain";
import { createInboundRoute } from "@/lib/domain/inbound/create-inbound-route";
import { deleteInboundDomain } from "@/lib/domain/inbound/delete-inbound-domain";
import { deleteInboundRoute } from "@/lib/domain/inbound/delete-inbound-route";
import { addInboundDomainSchema } from "@/lib/domain/inbound/schemas";
import { updateInboundRoute } from "@/lib/domain/inbound/update-inbound-route";
import { verifyInboundDomain } from "@/lib/domain/inbound/verify-inbound-domain";
import { routeBodyFromForm } from "./route-body";

// Inbound domains and routes (docs/dashboard.md#inbound-inbound): owners and admins only, like sender domains; each change is
// audited by its use case with the dashboard user as the actor.

/** Adds an inbound domain and opens its page, with the MX record to publish. */
export async function addInboundDomainAction(_previous: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form, ["name"]);
  return dashboardAction({
    role: "ADMIN",
    schema: addInboundDomainSchema,
    input: values,
    values,
    run: async ({ name }, { workspace, user }) => {
      const domain = await addInboundDomain({ workspaceId: workspace.id, name, actor: await dashboardActor(user) });
      revalidatePath("/inbound/domains");
      redirect(`/inbound/domains/${domain.id}`);
    },
  });
}

/** Looks the MX record up now (DOMAIN_VERIFICATION=off: verified without a lookup). */
export async function verifyInboundDomainAction(_previous: FormState, form: FormData): Promise<FormState> {
  return dashboardAction({
    role: "ADMIN",
    run: async (_input, { workspace, user }) => {
      const id = String(form.get("id") ?? "");
      const { domain, check } = await verifyInboundDomain(workspace.id, id, await dashboardActor(user));
      revalidatePath(`/inbound/domains/${domain.id}`);
      const found = check
        ? check.detail
          ? ` (found: ${check.detail})`
          : ""
        : " (DNS checks are turned off on this server)";
      return {
        message:
          domain.status === "VERIFIED"
            ? `Verified: the MX record is in place${found}.`
            : `Not verified: ${domain.lastCheckError ?? "the MX record was not found"}.`,
      };
    },
  });
}

/** Deletes the domain and its routes: its mail is refused at RCPT TO from now on. */
export async function deleteInboundDomainAction(_previous: FormState, form: FormData): Promise<FormState> {
  const result = await dashboardAction({
    role: "ADMIN",
    run: async (_input, { workspace, user }) => {
      await deleteInboundDomain(workspace.id, String(form.get("id") ?? ""), await dashboardActor(user));
      revalidatePath("/inbound/domains");
      return {};
    },
  });
  if (result.ok) redirect("/inbound/domains");
  return result;
}

const ROUTE_FIELDS = [
  "pattern",
  "name",
  "webhook",
  "forwardTo",
  "workflowId",
  "dmarcReports",
  "rejectCode",
  "rejectMessage",
  "dmarcFailAction",
  "spamThreshold",
  "spamAction",
  "enabled",
];

/** Adds a route (no routeId) or saves an existing one; the use case checks the pattern and each action again. */
export async function saveInboundRouteAction(_previous: FormState, form: FormData): Promise<FormState> {
  const routeId = String(form.get("routeId") ?? "");
  const domainId = String(form.get("inboundDomainId") ?? "");
  const values = formValues(form, ROUTE_FIELDS);
  return dashboardAction({
    role: "ADMIN",
    input: values,
    values,
    run: async (_input, { workspace, user }) => {
      const body = routeBodyFromForm(form);
      const actor = await dashboardActor(user);
      const route = routeId
        ? await updateInboundRoute(workspace.id, routeId, body, actor)
        : await createInboundRoute(workspace.id, body, actor);
      revalidatePath(`/inbound/domains/${domainId}`);
      return { message: routeId ? `Saved ${route.pattern}.` : `Added ${route.pattern}.` };
    },
  });
}

export async function deleteInboundRouteAction(_previous: FormState, form: FormData): Promise<FormState> {
  return dashboardAction({
    role: "ADMIN",
    run: async (_input, { workspace, user }) => {
      const route = await deleteInboundRoute(
        workspace.id,
        String(form.get("routeId") ?? ""),
        await dashboardActor(user),
      );
      revalidatePath(`/inbound/domains/${route.inboundDomainId}`);
      return { message: `Deleted ${route.pattern}.` };
    },
  });
}
