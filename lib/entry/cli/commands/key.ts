import "server-only";
import { createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { listApiKeys, type ApiKeySummary } from "@/lib/domain/api-keys/list-api-keys";
import { revokeApiKeyOrThrow } from "@/lib/domain/api-keys/revoke-api-key";
import { API_SCOPES, isApiScope, type ApiScope } from "@/lib/domain/api-keys/scopes.shared";
import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import { invalidParameter } from "@/lib/foundation/errors";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { emit, optionalString, parseFlags, requiredString, type CliCommand, type FlagValues } from "../io";

const list = (values: FlagValues, name: string) =>
  (optionalString(values, name) ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

function scopesOf(values: FlagValues): ApiScope[] {
  return list(values, "scopes").map((scope) => {
    if (!isApiScope(scope))
      throw invalidParameter("scopes", `Unknown scope "${scope}": one of ${API_SCOPES.join(", ")}.`);
    return scope;
  });
}

function expiryOf(values: FlagValues): Date | null {
  const raw = optionalString(values, "expires-at");
  if (raw === undefined) return null;
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) throw invalidParameter("expiresAt", `"${raw}" is not an ISO 8601 date.`);
  return date;
}

const serialize = (key: ApiKeySummary) => ({
  id: key.id,
  name: key.name,
  scopes: key.scopes,
  allowedSenders: key.allowedSenders,
  allowedIps: key.allowedIps,
  expiresAt: key.expiresAt?.toISOString() ?? null,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  revokedAt: key.revokedAt?.toISOString() ?? null,
});

const restrictionsLine = (key: Pick<ApiKeySummary, "allowedSenders" | "allowedIps" | "expiresAt">) =>
  [
    key.allowedSenders.length ? `senders ${key.allowedSenders.join(", ")}` : "",
    key.allowedIps.length ? `IPs ${key.allowedIps.join(", ")}` : "",
    key.expiresAt ? `expires ${key.expiresAt.toISOString()}` : "",
  ]
    .filter(Boolean)
    .join("; ") || "no restrictions";

export const keyCommands: Record<string, CliCommand> = {
  "key create": {
    usage:
      "key create --workspace ID|NAME --name NAME [--scopes full|emails:send,emails:read,…] [--allowed-senders ADDRESS|DOMAIN,…] [--allowed-ips CIDR,…] [--expires-at ISO-DATE] [--json]",
    summary:
      "Create an API key (scopes and restrictions fixed for its life); its username and password are printed once.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, {
        workspace: { type: "string" },
        name: { type: "string" },
        scopes: { type: "string" },
        "allowed-senders": { type: "string" },
        "allowed-ips": { type: "string" },
        "expires-at": { type: "string" },
      });
      const workspaceRef = requiredString(values, "workspace");
      const name = requiredString(values, "name");
      const workspace = await findWorkspaceOrThrow(workspaceRef);
      const key = await createApiKey({
        workspaceId: workspace.id,
        name,
        scopes: scopesOf(values),
        allowedSenders: list(values, "allowed-senders"),
        allowedIps: list(values, "allowed-ips"),
        expiresAt: expiryOf(values),
        actor: AUDIT_CLI_ACTOR,
      });
      emit(
        context,
        {
          id: key.id,
          username: key.id,
          password: key.password,
          name: key.name,
          workspaceId: key.workspaceId,
          scopes: key.scopes,
          allowedSenders: key.allowedSenders,
          allowedIps: key.allowedIps,
          expiresAt: key.expiresAt?.toISOString() ?? null,
          createdAt: key.createdAt.toISOString(),
        },
        [
          `Created API key "${key.name}" in "${workspace.name}" (${workspace.id}).`,
          `  username: ${key.id}`,
          `  password: ${key.password}`,
          `  scopes: ${key.scopes.join(", ")} (${restrictionsLine(key)})`,
          "The password is shown only this once; store it now. Send it as HTTP Basic credentials (username:password).",
        ],
      );
    },
  },
  "key list": {
    usage: "key list --workspace ID|NAME [--json]",
    summary: "List the workspace's API keys with their scopes and restrictions (never a secret).",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { workspace: { type: "string" } });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const keys = await listApiKeys(workspace.id);
      const lines = keys.length
        ? keys.map(
            (key) =>
              `${key.id}\t${key.name}\t${key.scopes.join(",")}\t${restrictionsLine(key)}\t${key.revokedAt ? "revoked" : "active"}`,
          )
        : [`No API keys in "${workspace.name}".`];
      emit(context, keys.map(serialize), lines);
    },
  },
  "key revoke": {
    usage: "key revoke --workspace ID|NAME --id KEY_ID [--json]",
    summary: "Revoke an API key: from the next request on it is refused (401).",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { workspace: { type: "string" }, id: { type: "string" } });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const key = await revokeApiKeyOrThrow(workspace.id, requiredString(values, "id"), AUDIT_CLI_ACTOR);
      emit(context, serialize(key), [`Revoked API key "${key.name}" (${key.id}) of "${workspace.name}".`]);
    },
  },
};
