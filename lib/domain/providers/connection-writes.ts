import "server-only";
import type { ConnectionKind, ConnectionSecrets, ConnectionSettings } from "@/db/schema";
import type { Tx } from "@/db/client";
import type { AuditActor } from "@/lib/records/audit/actor";
import { recordAuditedChange } from "@/lib/records/audit/record-audit";
import { AppError, invalidParameter } from "@/lib/foundation/errors";
import { checkConnectionUrl } from "./connection-host";
import { openSecrets } from "./connection-secrets";
import type { ProviderConnection } from "./get-connection";
import { DEFAULT_CONNECTION, KIND_FIELDS, SECRET_FIELDS, type UpdateConnectionInput } from "./schemas";

// What creating and changing a connection share: the fields its kind takes, the hosts it may reach, the audit.

export const MAX_CONNECTIONS = 50;

export interface ConnectionValues {
  settings: ConnectionSettings;
  secrets: ConnectionSecrets;
  ratePerSecond: number | null;
  concurrency: number | null;
}

const SETTING_FIELDS = [
  "url",
  "user",
  "baseUrl",
  "region",
  "accessKeyId",
  "configurationSet",
  "endpoint",
  "snsTopicArns",
] as const;

/**
 * The connection's values once `input` is applied over `current` (a new connection: none): fields of another kind are
 * refused naming them, the kind's required ones must end up set, and every URL's host must be allowed.
 */
export async function connectionValues(
  kind: ConnectionKind,
  input: UpdateConnectionInput,
  current?: ConnectionValues,
): Promise<ConnectionValues> {
  const { allowed, required } = KIND_FIELDS[kind];
  for (const field of [...SETTING_FIELDS, ...SECRET_FIELDS]) {
    if (input[field] !== undefined && !allowed.includes(field))
      throw invalidParameter(field, `${field} is not a setting of a ${kind} connection (it takes ${list(allowed)}).`);
  }
  const settings: ConnectionSettings = { ...current?.settings };
  for (const field of SETTING_FIELDS)
    if (input[field] !== undefined) Object.assign(settings, { [field]: input[field] });
  const secrets: ConnectionSecrets = { ...current?.secrets };
  for (const field of SECRET_FIELDS) if (input[field] !== undefined) secrets[field] = input[field];
  for (const field of required) {
    if (
      (settings as Record<string, unknown>)[field] === undefined &&
      (secrets as Record<string, unknown>)[field] === undefined
    )
      throw invalidParameter(field, `A ${kind} connection needs ${field}.`);
  }
  if (settings.url) await checkConnectionUrl(settings.url, "url", ["smtp:", "smtps:"]);
  if (settings.baseUrl) await checkConnectionUrl(settings.baseUrl, "baseUrl", ["https:", "http:"]);
  if (settings.endpoint) await checkConnectionUrl(settings.endpoint, "endpoint", ["https:", "http:"]);
  return {
    settings,
    secrets,
    ratePerSecond: input.ratePerSecond !== undefined ? input.ratePerSecond : (current?.ratePerSecond ?? null),
    concurrency: input.concurrency !== undefined ? input.concurrency : (current?.concurrency ?? null),
  };
}

export function valuesOf(row: ProviderConnection): ConnectionValues {
  return {
    settings: row.settings,
    secrets: openSecrets(row),
    ratePerSecond: row.ratePerSecond,
    concurrency: row.concurrency,
  };
}

export function reservedName(name: string): void {
  if (name === DEFAULT_CONNECTION)
    throw invalidParameter("name", "default is the instance's own connection (its env settings); choose another name.");
}

export const duplicateName = (name: string) =>
  new AppError("CONFLICT", `This workspace already has a connection named ${name}.`, { param: "name" });

const list = (fields: readonly string[]) => (fields.length ? fields.join(", ") : "no settings");

/** The audited fields: settings and limits, and which secrets are set or were rotated, never their values. */
function audited(row: ProviderConnection) {
  const secrets = openSecrets(row);
  return {
    name: row.name,
    kind: row.kind,
    settings: row.settings,
    writeOnlyFieldsSet: SECRET_FIELDS.filter((field) => secrets[field] !== undefined),
    ratePerSecond: row.ratePerSecond,
    concurrency: row.concurrency,
  };
}

export async function auditConnection(
  tx: Tx,
  actor: AuditActor,
  action: "provider_connection.create" | "provider_connection.update" | "provider_connection.delete",
  before: ProviderConnection | null,
  after: ProviderConnection | null,
  rotated: readonly string[] = [],
): Promise<void> {
  // The rotated secrets' names are said on the new side only, so an update that only rotates is still written.
  const withRotation = (row: ProviderConnection) => ({
    ...audited(row),
    ...(row === after && rotated.length ? { writeOnlyFieldsRotated: rotated } : {}),
  });
  await recordAuditedChange(tx, {
    actor,
    action,
    targetType: "provider_connection",
    before,
    after,
    audited: withRotation,
  });
}
