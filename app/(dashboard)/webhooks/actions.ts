"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { dashboardAction, formValues, type FormState } from "@/app/_lib/action";
import { dashboardActor } from "@/app/_lib/audit-actor";
import {
  createEndpoint,
  deleteEndpoint,
  rotateEndpointSecret,
  updateEndpoint,
} from "@/lib/flows/webhooks/manage-endpoints";
import { replayEndpoint } from "@/lib/flows/webhooks/replay";
import { sendTestEvent } from "@/lib/flows/webhooks/send-test-event";

// The Webhooks page's actions (admins and owners): each calls the use case the API calls
// (/v1/webhook_endpoints), with the signed-in user as the audit log's actor.

export type CreatedEndpointState = FormState<{ created: { id: string; url: string; secret: string } }>;
export type SavedState = FormState<{ message: string }>;
export type SecretState = FormState<{ secret: string; previousSecretExpiresAt: string | null }>;

/** The checked event types; none checked means every type (null), as the API's absent field does. */
function eventTypesOf(form: FormData): string[] | null {
  const types = form.getAll("eventTypes").map(String);
  return types.length ? types : null;
}

const refresh = (id?: string) => {
  revalidatePath("/webhooks");
  if (id) revalidatePath(`/webhooks/${id}`);
};

/** A new endpoint; its signing secret travels back in this one answer only. */
export async function createEndpointAction(
  _previous: CreatedEndpointState,
  form: FormData,
): Promise<CreatedEndpointState> {
  const values = formValues(form, ["url", "description"]);
  return dashboardAction({
    role: "ADMIN",
    input: { url: values.url.trim(), description: values.description, eventTypes: eventTypesOf(form) },
    values,
    run: async (input, { workspace, user }) => {
      const { endpoint, secret } = await createEndpoint(workspace.id, input, await dashboardActor(user));
      refresh();
      return { created: { id: endpoint.id, url: endpoint.url, secret } };
    },
  });
}

/** URL, description and event types of an endpoint. */
export async function updateEndpointAction(_previous: SavedState, form: FormData): Promise<SavedState> {
  const values = formValues(form, ["id", "url", "description"]);
  return dashboardAction({
    role: "ADMIN",
    input: { url: values.url.trim(), description: values.description, eventTypes: eventTypesOf(form) },
    values,
    run: async (input, { workspace, user }) => {
      await updateEndpoint(workspace.id, values.id, input, await dashboardActor(user));
      refresh(values.id);
      return { message: "Saved." };
    },
  });
}

/**
 * Disables or enables an endpoint. Enabling one the service disabled may also replay what it missed
 * (`replaySince`: the events since then that never reached it), in the same click.
 */
export async function setEndpointEnabledAction(_previous: SavedState, form: FormData): Promise<SavedState> {
  const values = formValues(form, ["id", "enabled", "replaySince"]);
  const enabled = values.enabled === "true";
  return dashboardAction({
    role: "ADMIN",
    input: { enabled },
    run: async (input, { workspace, user }) => {
      await updateEndpoint(workspace.id, values.id, input, await dashboardActor(user));
      let message = enabled ? "Enabled." : "Disabled: no event is sent to it until it is enabled again.";
      if (enabled && values.replaySince) {
        const { replayed, more } = await replayEndpoint(workspace.id, values.id, { since: values.replaySince });
        message = `Enabled; ${replayed} missed event${replayed === 1 ? "" : "s"} queued again${more ? " (more remain: replay again from the last one)" : ""}.`;
      }
      refresh(values.id);
      return { message };
    },
  });
}

/** A new signing secret, shown once; the old one keeps signing alongside for 24 hours. */
export async function rotateSecretAction(_previous: SecretState, form: FormData): Promise<SecretState> {
  const id = String(form.get("id") ?? "");
  return dashboardAction({
    role: "ADMIN",
    run: async (_input, { workspace, user }) => {
      const { endpoint, secret } = await rotateEndpointSecret(workspace.id, id, await dashboardActor(user));
      refresh(id);
      return { secret, previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null };
    },
  });
}

/** "Send test event": a `webhook.test` delivery to this endpoint alone, through the queue. */
export async function sendTestEventAction(_previous: SavedState, form: FormData): Promise<SavedState> {
  const id = String(form.get("id") ?? "");
  return dashboardAction({
    role: "ADMIN",
    run: async (_input, { workspace }) => {
      const { deliveryId } = await sendTestEvent(workspace.id, id);
      refresh(id);
      return { message: `Test event queued (${deliveryId}); its attempts appear below.` };
    },
  });
}

/**
 * "Replay all failed since…" (`since`, an ISO instant; `mode` missed or all) or "Resend this event"
 * (`eventId`): new deliveries of the same events, so a receiver that has one already dedupes it.
 */
export async function replayAction(_previous: SavedState, form: FormData): Promise<SavedState> {
  const values = formValues(form, ["id", "since", "eventId", "mode"]);
  const body = values.eventId ? { eventId: values.eventId } : { since: values.since, mode: values.mode || undefined };
  return dashboardAction({
    role: "ADMIN",
    input: body,
    values,
    run: async (input, { workspace }) => {
      const { replayed, more } = await replayEndpoint(workspace.id, values.id, input);
      refresh(values.id);
      if (values.eventId) return { message: "Event queued again." };
      return {
        message: `${replayed} event${replayed === 1 ? "" : "s"} queued again${more ? "; more remain: replay again from a later time" : ""}.`,
      };
    },
  });
}

/** Deletes an endpoint with its deliveries and attempt log, then back to the list. */
export async function deleteEndpointAction(form: FormData): Promise<void> {
  const id = String(form.get("id") ?? "");
  const state = await dashboardAction({
    role: "ADMIN",
    run: async (_input, { workspace, user }) => {
      await deleteEndpoint(workspace.id, id, await dashboardActor(user));
      return {};
    },
  });
  refresh();
  if (state.ok) redirect("/webhooks");
}
