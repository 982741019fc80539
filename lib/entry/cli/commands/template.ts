import "server-only";
import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import fs from "node:fs";
import path from "node:path";
import { createTemplate } from "@/lib/domain/templates/create-template";
import { findWorkspaceOrThrow } from "@/lib/domain/workspaces/find-workspace-or-throw";
import { emit, flag, optionalString, parseFlags, requiredString, UsageError, type CliCommand } from "../io";

export const templateCommands: Record<string, CliCommand> = {
  "template create": {
    usage:
      "template create --workspace ID|NAME --name NAME --subject SUBJECT --html FILE [--text FILE] [--from ADDRESS] [--reply-to ADDRESS] [--strict] [--json]",
    summary: "Create a template from an HTML file (Liquid); --strict makes missing variables an error.",
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, {
        workspace: { type: "string" },
        name: { type: "string" },
        subject: { type: "string" },
        html: { type: "string" },
        text: { type: "string" },
        from: { type: "string" },
        "reply-to": { type: "string" },
        strict: { type: "boolean" },
      });
      const workspaceRef = requiredString(values, "workspace");
      const name = requiredString(values, "name");
      const subject = requiredString(values, "subject");
      const bodyHtml = readFlagFile("html", requiredString(values, "html"));
      const textFile = optionalString(values, "text");
      const bodyText = textFile === undefined ? null : readFlagFile("text", textFile);
      const workspace = await findWorkspaceOrThrow(workspaceRef);
      const template = await createTemplate({
        actor: AUDIT_CLI_ACTOR,
        workspaceId: workspace.id,
        name,
        subject,
        bodyHtml,
        bodyText,
        fromAddress: optionalString(values, "from") ?? null,
        replyTo: optionalString(values, "reply-to") ?? null,
        strict: flag(values, "strict"),
      });
      emit(
        context,
        {
          id: template.id,
          name: template.name,
          subject: template.subject,
          fromAddress: template.fromAddress,
          replyTo: template.replyTo,
          strict: template.strict,
          workspaceId: template.workspaceId,
          createdAt: template.createdAt.toISOString(),
        },
        [`Created template "${template.name}" (${template.id}) in "${workspace.name}" (${workspace.id}).`],
      );
    },
  },
};

function readFlagFile(name: string, file: string): string {
  try {
    return fs.readFileSync(path.resolve(file), "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new UsageError(`Cannot read --${name} ${file}: ${reason}.`);
  }
}
