import "server-only";
import fs from "node:fs";
import path from "node:path";
import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import { getTemplateLocaleOrThrow } from "@/lib/domain/templates/list-template-locales";
import { checkedMessageTable, messageTableFile } from "@/lib/domain/templates/message-table.shared";
import { importTemplateMessages } from "@/lib/domain/templates/save-template-locale";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { emit, optionalString, parseFlags, requiredString, UsageError, type CliCommand } from "../io";

// A template's message tables as translators' files (docs/templates.md#localisation): the same use cases as
// GET and PUT /v1/templates/:id/locales/:locale/messages, audited as the CLI.

const which = { workspace: { type: "string" }, template: { type: "string" }, locale: { type: "string" } } as const;

export const templateLocaleCommands: Record<string, CliCommand> = {
  "template locales export": {
    usage: "template locales export --workspace ID|NAME --template ID --locale TAG [--out FILE]",
    summary:
      "Write a locale's message table as a translators' JSON file (flat keys → ICU texts); stdout without --out.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { ...which, out: { type: "string" } });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const { template, variant } = await getTemplateLocaleOrThrow(
        workspace.id,
        requiredString(values, "template"),
        requiredString(values, "locale"),
      );
      const file = messageTableFile(template, variant);
      const out = optionalString(values, "out");
      if (out === undefined) {
        context.io.stdout(file.text.trimEnd());
        return;
      }
      fs.writeFileSync(path.resolve(out), file.text);
      const keys = Object.keys(variant.messages).length;
      emit(context, { templateId: template.id, locale: variant.locale, keys, file: path.resolve(out) }, [
        `Wrote ${keys} keys of ${variant.locale} of "${template.name}" to ${out}.`,
      ]);
    },
  },
  "template locales import": {
    usage: "template locales import --workspace ID|NAME --template ID --locale TAG --file FILE [--json]",
    summary: "Replace a locale's message table from a translators' JSON file, as the template's next version.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { ...which, file: { type: "string" } });
      const workspace = await findWorkspaceOrThrow(requiredString(values, "workspace"));
      const messages = checkedMessageTable(readJsonFile(requiredString(values, "file")));
      const template = await importTemplateMessages({
        workspaceId: workspace.id,
        templateId: requiredString(values, "template"),
        locale: requiredString(values, "locale"),
        messages,
        userId: null,
        actor: AUDIT_CLI_ACTOR,
      });
      const keys = Object.keys(messages).length;
      emit(context, { templateId: template.id, version: template.version, keys }, [
        `Imported ${keys} keys into "${template.name}" (${template.id}), now at version ${template.version}.`,
      ]);
    },
  },
};

function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(file), "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new UsageError(`Cannot read --file ${file}: ${reason}.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--file ${file} is not JSON: ${(error as Error).message}.`);
  }
}
