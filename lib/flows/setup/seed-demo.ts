import "server-only";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { eq, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { workspaces } from "@/db/schema/index";
import { createApiKeyIn } from "@/lib/domain/api-keys/create-api-key";
import { addDomainIn } from "@/lib/domain/domains/add-domain";
import { invalidParameter } from "@/lib/foundation/errors";
import { isId } from "@/lib/foundation/ids";
import { createTemplateIn } from "@/lib/domain/templates/create-template";
import { createWorkspaceIn } from "@/lib/domain/workspaces/create-workspace";

export const DEMO_WORKSPACE_NAME = "Demo";
/** Any fixed number: two processes booting on one empty PostgreSQL database seed one demo, not two. */
const SEED_LOCK = 7_245_002;

export interface SeedDemoOptions {
  /** SEED_API_KEY, `key_…:secret`: use this pair for the demo key instead of a random one (e2e tests). */
  apiKey?: string;
  /** Boot: seed only when no workspace exists at all. The CLI seeds whenever no "Demo" workspace exists. */
  onlyIfEmpty?: boolean;
  name?: string;
}

type Workspace = Awaited<ReturnType<typeof createWorkspaceIn>>;

export type SeedDemoResult =
  | {
      status: "created";
      workspace: Workspace;
      domain: Awaited<ReturnType<typeof addDomainIn>>;
      template: Awaited<ReturnType<typeof createTemplateIn>>;
      key: Awaited<ReturnType<typeof createApiKeyIn>>;
    }
  | { status: "exists"; workspace: Workspace }
  | { status: "skipped" };

/**
 * Workspace "Demo" (test mode off, so the printed curl works for any address), example.com verified, a template and
 * an API key. Idempotent, one transaction.
 */
export async function seedDemo(options: SeedDemoOptions = {}): Promise<SeedDemoResult> {
  const fixedKey = options.apiKey ? parseSeedApiKey(options.apiKey) : undefined;
  const name = options.name?.trim() || DEMO_WORKSPACE_NAME;
  const db = await getDb();
  return db.transaction(async (tx): Promise<SeedDemoResult> => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    if (options.onlyIfEmpty) {
      const [any] = await tx.select({ id: workspaces.id }).from(workspaces).limit(1);
      if (any) return { status: "skipped" };
    }
    const [demo] = await tx
      .select()
      .from(workspaces)
      .where(eq(workspaces.name, name))
      .orderBy(workspaces.createdAt)
      .limit(1);
    if (demo) return { status: "exists", workspace: demo };
    return { status: "created", ...(await createDemo(tx, name, fixedKey)) };
  });
}

async function createDemo(tx: Tx, name: string, fixedKey: { username: string; password: string } | undefined) {
  const workspace = await createWorkspaceIn(tx, { name, testMode: false });
  const domain = await addDomainIn(tx, { workspaceId: workspace.id, name: "example.com", verified: true });
  const template = await createTemplateIn(tx, {
    workspaceId: workspace.id,
    name: "Welcome (demo)",
    subject: 'Welcome, {{ name | default: "friend" }}!',
    bodyHtml: [
      '<h1>Hello {{ name | default: "friend" }}!</h1>',
      "<p>This message was sent through the demo workspace of your own email service.</p>",
      '<p><a href="https://example.com/getting-started">Read the getting-started guide</a></p>',
    ].join("\n"),
    fromAddress: "Demo <hello@example.com>",
  });
  const key = await createApiKeyIn(tx, {
    workspaceId: workspace.id,
    name: "Demo key",
    fixed: fixedKey,
    actor: AUDIT_SYSTEM_ACTOR,
  });
  return { workspace, domain, template, key };
}

export function parseSeedApiKey(value: string): { username: string; password: string } {
  const separator = value.indexOf(":");
  const username = value.slice(0, separator);
  const password = value.slice(separator + 1);
  if (separator < 0 || !isId("apiKey", username) || !/^[0-9A-Za-z_-]{32,}$/.test(password)) {
    throw invalidParameter("SEED_API_KEY", "SEED_API_KEY must be key_<16 base62>:<secret of 32+ characters>.");
  }
  return { username, password };
}

/** The lines printed after seeding (server boot and `npm run cli -- seed`). */
export function describeDemo(result: SeedDemoResult, settings: { appUrl: string; deliveryProvider: string }): string[] {
  if (result.status === "skipped") return [];
  if (result.status === "exists") {
    return [
      `The demo workspace "${result.workspace.name}" (${result.workspace.id}) already exists; nothing was changed.`,
      "API key passwords are shown only when created. Make a new key with:",
      `  npm run cli -- key create --workspace ${result.workspace.id} --name "my key"`,
    ];
  }
  const delivery =
    settings.deliveryProvider === "local"
      ? "Delivery provider: local. Mail is caught by the dashboard inbox; nothing leaves this machine."
      : `Delivery provider: ${settings.deliveryProvider}. Mail is really sent, from hello@example.com.`;
  return [
    "",
    "Demo workspace created",
    "======================",
    `Dashboard:    ${settings.appUrl}/ (first visit: /setup creates your account, owner of this workspace too)`,
    `Workspace:    ${result.workspace.name} (${result.workspace.id}), test mode OFF: live sends go to any address.`,
    `Domain:       ${result.domain.name} (verified locally, no DNS check)`,
    `Template:     ${result.template.name} (${result.template.id})`,
    `API username: ${result.key.id}`,
    `API password: ${result.key.password}`,
    "The password is shown only now; store it. For the README's examples, in your shell:",
    `  export KEY_USERNAME='${result.key.id}' KEY_PASSWORD='${result.key.password}'`,
    delivery,
    "",
    "Send a message:",
    ...demoCurl(result, settings.appUrl),
    "",
  ];
}

export function demoCurl(result: Extract<SeedDemoResult, { status: "created" }>, appUrl: string): string[] {
  const body = JSON.stringify({ templateId: result.template.id, to: "you@example.com", variables: { name: "Ada" } });
  return [
    `curl -sS -X POST '${appUrl}/api/v1/email_messages' \\`,
    `  -u '${result.key.id}:${result.key.password}' \\`,
    "  -H 'Content-Type: application/json' \\",
    `  -d '${body}'`,
  ];
}
