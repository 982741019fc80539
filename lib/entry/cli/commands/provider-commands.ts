import "server-only";
import fs from "node:fs";
import path from "node:path";
import { createConnection } from "@/lib/domain/providers/create-connection";
import { deleteConnection } from "@/lib/domain/providers/delete-connection";
import { getConnectionOrThrow, listConnections } from "@/lib/domain/providers/get-connection";
import { serializeConnection } from "@/lib/domain/providers/serialize-connection";
import { updateConnection } from "@/lib/domain/providers/update-connection";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import { env } from "@/lib/foundation/env";
import { AppError, notFound } from "@/lib/foundation/errors";
import {
  emit,
  leadingArgument,
  optionalString,
  parseFlags,
  requiredString,
  UsageError,
  type CliCommand,
  type FlagValues,
} from "../io";

export const W = { workspace: { type: "string" } } as const;
export const workspaceOf = async (values: FlagValues) => findWorkspaceOrThrow(requiredString(values, "workspace"));

/** `a, b,c` → ["a", "b", "c"]. */
export const listOf = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");

/** The use case names the API's field (`apiKey`, `match.mailboxFamilies[0]`); the operator typed a flag: name both. */
export async function naming<T>(flags: Record<string, string>, work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    const field = error instanceof AppError ? error.param?.replace(/\[\d+\]$/, "") : undefined;
    if (!(error instanceof AppError) || !field || !Object.hasOwn(flags, field)) throw error;
    throw new AppError(error.code, `${error.message} (--${flags[field]})`, {
      param: error.param,
      details: error.details,
    });
  });
}

/** A connection's settings and the flags that set them; secrets also as `--api-key-file PATH` (`-`: stdin). */
const SETTING_FLAGS: Record<string, string> = {
  url: "url",
  user: "user",
  baseUrl: "base-url",
  region: "region",
  accessKeyId: "access-key-id",
  configurationSet: "configuration-set",
  endpoint: "endpoint",
};
const SECRET_FLAGS: Record<string, string> = {
  password: "password",
  apiKey: "api-key",
  webhookSecret: "webhook-secret",
  secretAccessKey: "secret-access-key",
};
const FIELD_FLAGS: Record<string, string> = {
  ...SETTING_FLAGS,
  ...SECRET_FLAGS,
  snsTopicArns: "sns-topic-arns",
  ratePerSecond: "rate-per-second",
  concurrency: "concurrency",
};

const FIELD_OPTIONS = Object.fromEntries(
  [
    ...Object.values(SETTING_FLAGS),
    ...Object.values(SECRET_FLAGS).flatMap((name) => [name, `${name}-file`]),
    "sns-topic-arns",
    "rate-per-second",
    "concurrency",
  ].map((name) => [name, { type: "string" as const }]),
);

const FIELDS_USAGE =
  "[--url smtp://HOST:PORT] [--user NAME] [--password-file PATH|-] [--api-key-file PATH|-] [--webhook-secret-file PATH|-] [--base-url URL] [--region REGION] [--access-key-id ID] [--secret-access-key-file PATH|-] [--configuration-set NAME] [--endpoint URL] [--sns-topic-arns ARN,…] [--rate-per-second N|none] [--concurrency N|none]";

/** The connection fields the flags give, in the API's shape (secrets read from their files, never echoed). */
function connectionFields(values: FlagValues): Record<string, unknown> {
  const fromStdin = Object.values(SECRET_FLAGS).filter((name) => values[`${name}-file`] === "-");
  if (fromStdin.length > 1)
    throw new UsageError(
      `Only one secret can come from stdin (got ${fromStdin.map((n) => `--${n}-file -`).join(", ")}).`,
    );
  const body: Record<string, unknown> = {};
  for (const [field, name] of Object.entries(SETTING_FLAGS)) body[field] = optionalString(values, name);
  for (const [field, name] of Object.entries(SECRET_FLAGS)) body[field] = secretOf(values, name);
  const arns = optionalString(values, "sns-topic-arns");
  body.snsTopicArns = arns === undefined ? undefined : listOf(arns);
  body.ratePerSecond = limitOf(values, "rate-per-second");
  body.concurrency = limitOf(values, "concurrency");
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/** `--api-key VALUE` (seen by `ps` and the shell's history) or `--api-key-file PATH`, `-` for stdin. */
function secretOf(values: FlagValues, name: string): string | undefined {
  const direct = optionalString(values, name);
  const file = optionalString(values, `${name}-file`);
  if (file === undefined) return direct;
  if (direct !== undefined) throw new UsageError(`Give --${name} or --${name}-file, not both.`);
  let text: string;
  try {
    text = fs.readFileSync(file === "-" ? 0 : path.resolve(file), "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new UsageError(`Cannot read --${name}-file ${file}: ${reason}.`);
  }
  const secret = text.replace(/\r?\n$/, "");
  if (secret.trim() === "") throw new UsageError(`--${name}-file ${file} is empty.`);
  return secret;
}

/** `--concurrency 4`, `--concurrency none` (null: no limit); anything else is the use case's 400. */
function limitOf(values: FlagValues, name: string): number | null | undefined {
  const value = optionalString(values, name);
  if (value === undefined) return undefined;
  if (value === "none") return null;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number or "none" (got "${value}").`);
  return Number(value);
}

/** By id (pcon_…) or by the name rules use. */
async function findConnectionOrThrow(workspaceId: string, ref: string) {
  if (ref.startsWith("pcon_")) return getConnectionOrThrow(workspaceId, ref);
  const found = (await listConnections(workspaceId)).find((connection) => connection.name === ref);
  if (!found) throw notFound(`Provider connection ${ref}`, "id");
  return found;
}

type ConnectionView = ReturnType<typeof serializeConnection>;

function describe(c: ConnectionView): string {
  const settings = Object.entries(c.settings).map(
    ([field, value]) => `${field}=${Array.isArray(value) ? value.join(",") : String(value)}`,
  );
  return [
    ...settings,
    ...(c.secretsSet.length ? [`secrets set: ${c.secretsSet.join(", ")}`] : []),
    ...(c.ratePerSecond !== null ? [`${c.ratePerSecond}/s`] : []),
    ...(c.concurrency !== null ? [`concurrency ${c.concurrency}`] : []),
  ].join("  ");
}

const eventsLine = (c: ConnectionView) =>
  c.eventsPath ? [`  events: have the provider post them to ${env().APP_URL}${c.eventsPath}`] : [];

/** `npm run cli -- provider …` (docs/delivery.md#routing-and-failover): a workspace's own connections. */
export const providerConnectionCommands: Record<string, CliCommand> = {
  "provider list": {
    usage: "provider list --workspace ID|NAME [--json]",
    summary: "List a workspace's provider connections: settings, which secrets are set (never their values), limits.",
    database: "migrated",
    async run(args, context) {
      const workspace = await workspaceOf(parseFlags(args, W));
      const connections = (await listConnections(workspace.id)).map(serializeConnection);
      emit(
        context,
        connections,
        connections.length
          ? connections.map((c) => `${c.id}  ${c.kind.padEnd(9)}  ${c.name}  ${describe(c)}`.trimEnd())
          : [`"${workspace.name}" has no provider connection: its mail goes through default (the instance's).`],
      );
    },
  },
  "provider add": {
    usage: `provider add NAME --workspace ID|NAME --kind smtp|resend|ses|simulator|local ${FIELDS_USAGE} [--json]`,
    summary:
      "Add a provider connection that routing rules name; secrets by --…-file PATH or - (stdin), or --password/--api-key/… VALUE.",
    database: "migrated",
    async run(args, context) {
      const { value, flags } = leadingArgument(args, "the connection's name", {
        ...W,
        kind: { type: "string" },
        ...FIELD_OPTIONS,
      });
      const workspace = await workspaceOf(flags);
      const body = { name: value, kind: requiredString(flags, "kind"), ...connectionFields(flags) };
      const view = serializeConnection(
        await naming({ ...FIELD_FLAGS, kind: "kind" }, createConnection(workspace.id, body, AUDIT_CLI_ACTOR)),
      );
      emit(context, view, [
        `Added connection ${view.name} (${view.id}, ${view.kind}) to "${workspace.name}".`,
        `  ${describe(view)}`.trimEnd(),
        ...eventsLine(view),
        `Route mail to it: npm run cli -- route add --workspace ${workspace.id} --connections ${view.name} …`,
      ]);
    },
  },
  "provider set": {
    usage: `provider set ID|NAME --workspace ID|NAME [--name NEW-NAME] ${FIELDS_USAGE} [--json]`,
    summary:
      "Change a connection (not its kind); a new name is carried into the rules. A new secret applies from the next hand-off; the old one still verifies events for a day.",
    database: "migrated",
    async run(args, context) {
      const { value, flags } = leadingArgument(args, "the connection (its id or name)", {
        ...W,
        name: { type: "string" },
        ...FIELD_OPTIONS,
      });
      const workspace = await workspaceOf(flags);
      const changes = { name: optionalString(flags, "name"), ...connectionFields(flags) };
      if (Object.values(changes).every((change) => change === undefined))
        throw new UsageError("Nothing to change: give --name or a setting of the connection.");
      const found = await findConnectionOrThrow(workspace.id, value);
      const view = serializeConnection(
        await naming(
          { ...FIELD_FLAGS, name: "name" },
          updateConnection(workspace.id, found.id, changes, AUDIT_CLI_ACTOR),
        ),
      );
      const rotated = Object.keys(SECRET_FLAGS).filter((field) => Object.hasOwn(changes, field));
      emit(context, view, [
        `Updated connection ${view.name} (${view.id}, ${view.kind}).`,
        `  ${describe(view)}`.trimEnd(),
        ...(rotated.length
          ? [`  new ${rotated.join(", ")}: used from the next hand-off; the previous secrets verify events for a day.`]
          : []),
      ]);
    },
  },
  "provider remove": {
    usage: "provider remove ID|NAME --workspace ID|NAME [--json]",
    summary: "Remove a connection and its circuit; refused while a routing rule names it.",
    database: "migrated",
    async run(args, context) {
      const { value, flags } = leadingArgument(args, "the connection (its id or name)", W);
      const workspace = await workspaceOf(flags);
      const found = await findConnectionOrThrow(workspace.id, value);
      const removed = await deleteConnection(workspace.id, found.id, AUDIT_CLI_ACTOR);
      emit(context, { id: removed.id, deleted: true }, [`Removed connection ${removed.name} (${removed.id}).`]);
    },
  },
};
