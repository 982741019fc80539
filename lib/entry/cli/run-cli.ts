import "server-only";
import { AppError } from "@/lib/foundation/errors";
import { VERSION } from "@/lib/foundation/version";
import { dbCommands } from "./commands/db";
import { domainCommands } from "./commands/domain";
import { keyCommands } from "./commands/key";
import { messageCommands } from "./commands/message";
import { seedCommands } from "./commands/seed";
import { templateCommands } from "./commands/template";
import { templateLocaleCommands } from "./commands/template-locales";
import { groupCommands } from "./commands/group";
import { suppressionCommands } from "./commands/suppression";
import { userCommands } from "./commands/user";
import { workflowCommands } from "./commands/workflow";
import { webhookCommands } from "./commands/webhook";
import { workspaceCommands } from "./commands/workspace";
import { inboundRoutingCommands } from "./commands/inbound-routing";
import { inboundSendCommands } from "./commands/inbound-send";
import { providerConnectionCommands } from "./commands/provider-commands";
import { routingRuleCommands } from "./commands/route-commands";
import { UsageError, type CliCommand, type CliContext, type CliIo, type DatabaseNeed } from "./io";

const PROGRAM = "npm run cli --";

export const COMMANDS: Record<string, CliCommand> = {
  ...workspaceCommands,
  ...userCommands,
  ...keyCommands,
  ...webhookCommands,
  ...inboundRoutingCommands,
  ...inboundSendCommands,
  ...providerConnectionCommands,
  ...routingRuleCommands,
  ...domainCommands,
  ...templateCommands,
  ...templateLocaleCommands,
  ...workflowCommands,
  ...groupCommands,
  ...suppressionCommands,
  ...messageCommands,
  ...dbCommands,
  ...seedCommands,
};

export interface RunCliOptions {
  /** main.ts opens (and migrates) the database here; tests leave it out and use their installed one. */
  prepareDatabase?: (need: Exclude<DatabaseNeed, "none">) => Promise<void>;
}

/** Exit code: 0 done, 1 failed (the AppError's message), 2 misuse (with the usage line). */
export async function runCli(argv: string[], io: CliIo, options: RunCliOptions = {}): Promise<number> {
  const json = argv.includes("--json");
  const context: CliContext = { io, json };
  const [first, second] = argv;
  // The bare number (as `npm --version` prints it), so a script can compare it; nothing is opened.
  if (first === "--version" || first === "-v") {
    io.stdout(json ? JSON.stringify({ version: VERSION }) : VERSION);
    return 0;
  }
  if (first === undefined || first === "help" || first === "--help" || first === "-h") {
    const filter = first === "help" ? second : undefined;
    printHelp(first === undefined ? io.stderr : io.stdout, filter);
    return first === undefined ? 2 : 0;
  }
  // The longest command name the arguments start with: `inbound domains add` (three words), `key create`, `seed`.
  const name =
    [3, 2]
      .map((words) => argv.slice(0, words).join(" "))
      .find((candidate) => candidate.includes(" ") && Object.hasOwn(COMMANDS, candidate)) ?? first;
  const command = COMMANDS[name];
  const args = argv.slice(name.split(" ").length);
  try {
    if (!command) throw unknownCommand(first, second);
    if (args.includes("--help") || args.includes("-h")) {
      io.stdout(`Usage: ${PROGRAM} ${command.usage}\n\n${command.summary}`);
      return 0;
    }
    if (command.database !== "none") await options.prepareDatabase?.(command.database);
    await command.run(args, context);
    return 0;
  } catch (error) {
    return reportError(error, context, command);
  }
}

function reportError(error: unknown, { io, json }: CliContext, command: CliCommand | undefined): number {
  const usage = error instanceof UsageError;
  const code = usage ? "USAGE" : error instanceof AppError ? error.code : "ERROR";
  const message = error instanceof Error ? error.message : String(error);
  const param = error instanceof AppError ? error.param : undefined;
  if (json) io.stderr(JSON.stringify({ error: { code, message, ...(param ? { param } : {}) } }));
  else io.stderr(`Error: ${message}`);
  if (usage) for (const line of usageLines(command, error.group)) io.stderr(line);
  return usage ? 2 : 1;
}

function unknownCommand(first: string, second: string | undefined): UsageError {
  const isGroup = Object.keys(COMMANDS).some((name) => name.startsWith(`${first} `));
  if (!isGroup) return new UsageError(`Unknown command "${first}".`);
  const message =
    second === undefined || second.startsWith("-")
      ? `"${first}" needs a subcommand.`
      : `Unknown command "${first} ${second}".`;
  return new UsageError(message, first);
}

function usageLines(command: CliCommand | undefined, group: string | undefined): string[] {
  if (command) return [`Usage: ${PROGRAM} ${command.usage}`];
  const inGroup = group ? Object.keys(COMMANDS).filter((name) => name.startsWith(`${group} `)) : [];
  if (inGroup.length > 0)
    return inGroup.map((name, index) => `${index === 0 ? "Usage:" : "      "} ${PROGRAM} ${COMMANDS[name].usage}`);
  return [`Usage: ${PROGRAM} <command> [flags]   (all commands: ${PROGRAM} help)`];
}

function printHelp(write: (text: string) => void, filter: string | undefined): void {
  const names = Object.keys(COMMANDS).filter((name) => !filter || name === filter || name.startsWith(`${filter} `));
  const lines = [`Usage: ${PROGRAM} <command> [flags]`, "", "Commands:"];
  for (const name of names.length > 0 ? names : Object.keys(COMMANDS)) {
    lines.push(`  ${COMMANDS[name].usage}`, `      ${COMMANDS[name].summary}`);
  }
  lines.push(
    "  help [COMMAND]",
    "      Show this help; `<command> --help` shows one command.",
    "  --version, -v",
    "      Print Postwerk's version.",
    "",
    "--workspace takes a workspace id (ws_…) or its exact name. --json prints the result as JSON.",
    "Secrets (provider add, provider set): --password-file PATH, or - for stdin, keeps them out of the shell's history.",
    "With the embedded database (no DATABASE_URL) the CLI works only while the server is stopped.",
  );
  write(lines.join("\n"));
}
