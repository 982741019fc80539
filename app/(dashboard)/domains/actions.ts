"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { dashboardAction, formValues, type FormState } from "@/app/_lib/action";
import { dashboardActor } from "@/app/_lib/audit-actor";
import { addDomain } from "@/lib/domain/domains/add-domain";
import type { RecordCheck } from "@/lib/domain/domains/dns-records";
import { domainIdSchema, addDomainSchema } from "@/lib/domain/domains/schemas";
import { checkDomainRequirements } from "@/lib/domain/domains/requirements/check-requirements";
import { verifyDomain } from "@/lib/domain/domains/verify-domain";
import { env } from "@/lib/foundation/env";
import { notFound } from "@/lib/foundation/errors";

/** Adds a domain to the current workspace and opens it, to show the records to publish. */
export async function addDomainAction(_previous: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form, ["name"]);
  return dashboardAction({
    role: "ADMIN",
    schema: addDomainSchema,
    input: values,
    values,
    run: async ({ name }, { workspace, user }) => {
      // DOMAIN_VERIFICATION=off: nothing to look up, so the domain counts as verified at once.
      const domain = await addDomain({
        workspaceId: workspace.id,
        name,
        verified: env().DOMAIN_VERIFICATION === "off",
        actor: await dashboardActor(user),
      });
      revalidatePath("/domains");
      redirect(`/domains/${domain.id}`);
    },
  });
}

export type VerifyState = FormState<{ status: string; lastCheckError: string | null; checks: RecordCheck[] }>;

/** Runs the DNS lookups for a domain of the current workspace; another workspace's id (or garbage) is "not found". */
export async function verifyDomainAction(_previous: VerifyState, form: FormData): Promise<VerifyState> {
  return dashboardAction({
    role: "ADMIN",
    run: async (_input, { workspace, user }) => {
      const parsed = domainIdSchema.safeParse({ id: form.get("id") });
      if (!parsed.success) throw notFound("Domain");
      const { domain, checks } = await verifyDomain(workspace.id, parsed.data.id, await dashboardActor(user));
      await checkDomainRequirements(domain);
      revalidatePath(`/domains/${domain.id}`);
      revalidatePath("/domains");
      return { status: domain.status, lastCheckError: domain.lastCheckError, checks };
    },
  });
}
