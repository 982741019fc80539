"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { addDomain } from "@/lib/domains/add-domain";
import type { RecordCheck } from "@/lib/domains/dns-records";
import { domainIdSchema, addDomainSchema } from "@/lib/domains/schemas";
import { verifyDomain } from "@/lib/domains/verify-domain";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { appErrorState, formValues, parseForm, type FormState } from "./form-state";

/** Adds a domain to the current workspace and opens it, to show the records to publish. */
export async function addDomainAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { workspace } = await requireDashboard("ADMIN");
  const values = formValues(form, ["name"]);
  const parsed = parseForm(addDomainSchema, values);
  if ("state" in parsed) return parsed.state;
  let domainId: string;
  try {
    // DOMAIN_VERIFICATION=off: nothing to look up, so the domain counts as verified at once.
    domainId = (await addDomain({ workspaceId: workspace.id, name: parsed.data.name, verified: env().DOMAIN_VERIFICATION === "off" })).id;
  } catch (error) {
    return appErrorState(error, values);
  }
  revalidatePath("/domains");
  redirect(`/domains/${domainId}`);
}

export interface VerifyState {
  error?: string;
  status?: string;
  lastCheckError?: string | null;
  checks?: RecordCheck[];
}

/** Runs the DNS lookups for a domain of the current workspace; another workspace's id is "not found". */
export async function verifyDomainAction(_previous: VerifyState, form: FormData): Promise<VerifyState> {
  const { workspace } = await requireDashboard("ADMIN");
  const parsed = domainIdSchema.safeParse({ id: form.get("id") });
  if (!parsed.success) return { error: "Domain not found." };
  try {
    const { domain, checks } = await verifyDomain(workspace.id, parsed.data.id);
    revalidatePath(`/domains/${domain.id}`);
    revalidatePath("/domains");
    return { status: domain.status, lastCheckError: domain.lastCheckError, checks };
  } catch (error) {
    if (error instanceof AppError) return { error: error.message };
    throw error;
  }
}
