import "server-only";
import { env } from "@/lib/foundation/env";
import { demoCurl, describeDemo, seedDemo } from "@/lib/flows/setup/seed-demo";
import { emit, optionalString, parseFlags, type CliCommand } from "../io";

export const seedCommands: Record<string, CliCommand> = {
  seed: {
    usage: "seed [--name NAME] [--json]",
    summary: 'Create the demo workspace ("Demo", or NAME) unless it exists; its key is SEED_API_KEY when set.',
    database: "migrated",
    async run(args, context) {
      const values = parseFlags(args, { name: { type: "string" } });
      const settings = env();
      const result = await seedDemo({ apiKey: settings.SEED_API_KEY, name: optionalString(values, "name") });
      const lines = describeDemo(result, { appUrl: settings.APP_URL, deliveryProvider: settings.DELIVERY_PROVIDER });
      if (result.status !== "created") {
        const workspace = result.status === "exists" ? { id: result.workspace.id, name: result.workspace.name } : null;
        emit(context, { status: result.status, workspace }, lines);
        return;
      }
      const { workspace, domain, template, key } = result;
      emit(
        context,
        {
          status: result.status,
          workspace: { id: workspace.id, name: workspace.name, testMode: workspace.testMode },
          domain: { id: domain.id, name: domain.name, status: domain.status },
          template: { id: template.id, name: template.name },
          key: { username: key.id, password: key.password },
          dashboardUrl: `${settings.APP_URL}/`,
          curl: demoCurl(result, settings.APP_URL).join("\n"),
        },
        lines,
      );
    },
  },
};
