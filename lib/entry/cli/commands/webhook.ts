import "server-only";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  rotateEndpointSecret,
} from "@/lib/flows/webhooks/manage-endpoints";
import { serializeEndpoint } from "@/lib/flows/webhooks/serialize";
import { emit, optionalString, parseFlags, requiredString, type CliCommand } from "../io";

const CLI_ACTOR = "cli";

export const webhookCommands: Record<string, CliCommand> = {
  "webhook list": {
    usage: "webhook list --workspace ID|NAME [--json]",
    summary: "List a workspace's webhook endpoints.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { workspace: { type: "string" } });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const { items } = await listEndpoints(workspace.id, { limit: 100, cursor: null });
      const endpoints = items.map(serializeEndpoint);
      emit(
        context,
        endpoints,
        endpoints.length
          ? endpoints.map(
              (e) =>
                `${e.id}  ${e.enabled ? "enabled " : "DISABLED"}  ${e.url}  ${e.eventTypes?.join(",") ?? "all events"}${e.disabledReason ? `  (${e.disabledReason})` : ""}`,
            )
          : [`"${workspace.name}" has no webhook endpoint.`],
      );
    },
  },
  "webhook create": {
    usage:
      "webhook create --workspace ID|NAME --url URL [--description TEXT] [--events email.bounced,email.complained] [--json]",
    summary: "Create a webhook endpoint; its signing secret is printed once.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, {
        workspace: { type: "string" },
        url: { type: "string" },
        description: { type: "string" },
        events: { type: "string" },
      });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const events = optionalString(values, "events")
        ?.split(",")
        .map((type) => type.trim());
      const { endpoint, secret } = await createEndpoint(
        workspace.id,
        { url: requiredString(values, "url"), description: optionalString(values, "description"), eventTypes: events },
        CLI_ACTOR,
      );
      emit(context, { ...serializeEndpoint(endpoint), secret }, [
        `Created webhook endpoint ${endpoint.id} for ${endpoint.url} in "${workspace.name}".`,
        `  signing secret: ${secret}`,
        "The secret is shown only this once; verify each request's webhook-signature with it (docs/webhooks.md).",
      ]);
    },
  },
  "webhook rotate": {
    usage: "webhook rotate --workspace ID|NAME --id whep_… [--json]",
    summary: "Rotate an endpoint's signing secret; the old one keeps signing alongside for 24 hours.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { workspace: { type: "string" }, id: { type: "string" } });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const { endpoint, secret } = await rotateEndpointSecret(workspace.id, requiredString(values, "id"), CLI_ACTOR);
      emit(context, { ...serializeEndpoint(endpoint), secret }, [
        `Rotated the secret of ${endpoint.id}.`,
        `  new signing secret: ${secret}`,
        `The previous secret signs too until ${endpoint.previousSecretExpiresAt?.toISOString()}.`,
      ]);
    },
  },
  "webhook delete": {
    usage: "webhook delete --workspace ID|NAME --id whep_… [--json]",
    summary: "Delete a webhook endpoint with its deliveries and attempt log.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { workspace: { type: "string" }, id: { type: "string" } });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const id = requiredString(values, "id");
      await deleteEndpoint(workspace.id, id, CLI_ACTOR);
      emit(context, { id, deleted: true }, [`Deleted webhook endpoint ${id}.`]);
    },
  },
};
