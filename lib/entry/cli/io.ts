import { parseArgs, type ParseArgsOptionsConfig } from "node:util";

// Output is injected, so tests run commands in-process.
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
};

/** Misuse (unknown command, bad or missing flag): printed with the usage line, exit code 2. */
export class UsageError extends Error {
  /** For an unknown subcommand: the group whose commands to list (`workspace`). */
  constructor(
    message: string,
    readonly group?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

export type DatabaseNeed = "none" | "open" | "migrated";

export interface CliContext {
  io: CliIo;
  json: boolean;
}

export interface CliCommand {
  /** Everything after `npm run cli --`, e.g. `key create --workspace ID|NAME --name NAME`. */
  usage: string;
  summary: string;
  database: DatabaseNeed;
  run(args: string[], context: CliContext): Promise<void>;
}

export type FlagValues = Record<string, string | boolean | undefined>;

/** Parses `--flag value` and `--flag=value` strictly; `--json` is accepted everywhere. */
export function parseFlags(args: string[], options: ParseArgsOptionsConfig): FlagValues {
  try {
    const { values } = parseArgs({
      args,
      options: { ...options, json: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    });
    return values as FlagValues;
  } catch (error) {
    throw new UsageError(describeParseError(error));
  }
}

function describeParseError(error: unknown): string {
  const { code, message } = error as { code?: string; message: string };
  const quoted = /'([^']+)'/.exec(message)?.[1];
  const flag = quoted?.split(" ")[0];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `Unknown option ${flag}.`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    return message.includes("does not take an argument") ? `${flag} does not take a value.` : `${flag} needs a value.`;
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return `Unexpected argument "${quoted}".`;
  return message;
}

export function requiredString(values: FlagValues, name: string): string {
  const value = optionalString(values, name);
  if (value === undefined) throw new UsageError(`Missing --${name}.`);
  return value;
}

export function optionalString(values: FlagValues, name: string): string | undefined {
  const value = values[name];
  if (typeof value !== "string") return undefined;
  if (value.trim() === "") throw new UsageError(`--${name} must not be empty.`);
  return value;
}

export function flag(values: FlagValues, name: string): boolean {
  return values[name] === true;
}

export function emit(context: CliContext, data: unknown, lines: string[]): void {
  if (context.json) context.io.stdout(JSON.stringify(data, null, 2));
  else for (const line of lines) context.io.stdout(line);
}

/** Single-quotes a value for a copy-pasteable shell command line. */
export function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

/** The leading positional argument (`workspace pause ID`), then the flags after it. */
export function leadingArgument(
  args: string[],
  label: string,
  options: ParseArgsOptionsConfig,
): { value: string; flags: FlagValues } {
  const [first, ...rest] = args;
  if (first === undefined || first.startsWith("-")) throw new UsageError(`Missing ${label}.`);
  if (first.trim() === "") throw new UsageError(`${label} must not be empty.`);
  return { value: first, flags: parseFlags(rest, options) };
}

export function onOff(values: FlagValues, name: string): boolean | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (value === "on") return true;
  if (value === "off") return false;
  throw new UsageError(`--${name} must be on or off (got "${String(value)}").`);
}
