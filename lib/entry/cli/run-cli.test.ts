import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { auditEvents, domains, templates, workspaces } from "@/db/schema";
import { authenticateApiKey } from "@/lib/domain/api-keys/authenticate-api-key";
import { basicAuthHeader } from "@/lib/domain/api-keys/create-api-key";
import { resetEnvForTests } from "@/lib/foundation/env";
import { randomBase62 } from "@/lib/foundation/ids";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { createCliDatabase } from "./database";
import type { RunCliOptions } from "./run-cli";
import { cli } from "./testing";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-cli-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs a command in-process on the test database (no prepareDatabase: the harness installed it). */

const unique = (prefix: string) => `${prefix} ${randomBase62(8)}`;

async function newWorkspace() {
  const result = await cli(["workspace", "create", "--name", unique("Acme"), "--json"]);
  expect(result.code).toBe(0);
  return result.json() as { id: string; name: string; testMode: boolean };
}

describe("workspace create", () => {
  it("creates a workspace in test mode and prints it as JSON", async () => {
    const name = unique("Acme");
    const result = await cli(["workspace", "create", "--name", name, "--json"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const data = result.json();
    expect(data).toMatchObject({ name, testMode: true });
    expect(data.id).toMatch(/^ws_[0-9A-Za-z]{16}$/);
    expect(data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const [row] = await (await getDb()).select().from(workspaces).where(eq(workspaces.id, data.id));
    expect(row.name).toBe(name);
  });

  it("--no-test-mode turns test mode off; the human output says so", async () => {
    const result = await cli(["workspace", "create", "--name", unique("Live"), "--no-test-mode"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Created workspace "Live \w+" \(ws_\w{16}\)\.\nTest mode is off/);
  });
});

describe("key create", () => {
  it("finds the workspace by name, prints username and password once, and the key works", async () => {
    const workspace = await newWorkspace();
    const result = await cli(["key", "create", "--workspace", workspace.name, "--name", "ci", "--json"]);
    expect(result.code).toBe(0);
    const key = result.json();
    expect(key).toMatchObject({ name: "ci", workspaceId: workspace.id });
    expect(key.username).toMatch(/^key_[0-9A-Za-z]{16}$/);
    expect(key.password).toMatch(/^[0-9A-Za-z]{40}$/);
    const principal = await authenticateApiKey(basicAuthHeader(key.username, key.password));
    expect(principal.workspaceId).toBe(workspace.id);
  });

  it("finds the workspace by id; the human output shows both credentials", async () => {
    const workspace = await newWorkspace();
    const result = await cli(["key", "create", "--workspace", workspace.id, "--name", "by id"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /username: key_\w{16}\n {2}password: \w{40}\n {2}scopes: full \(no restrictions\)\nThe password is shown only this once/,
    );
  });

  it("creates a scoped, restricted key; lists it with its grant; revokes it (audited as the CLI)", async () => {
    const workspace = await newWorkspace();
    const created = await cli([
      "key",
      "create",
      "--workspace",
      workspace.id,
      "--name",
      "web",
      "--scopes",
      "emails:send, emails:read",
      "--allowed-senders",
      "billing@example.com,example.org",
      "--allowed-ips",
      "10.0.0.0/8",
      "--expires-at",
      "2999-01-01T00:00:00Z",
      "--json",
    ]);
    expect(created.code).toBe(0);
    const key = created.json();
    expect(key).toMatchObject({
      scopes: ["emails:read", "emails:send"],
      allowedSenders: ["billing@example.com", "example.org"],
      allowedIps: ["10.0.0.0/8"],
      expiresAt: "2999-01-01T00:00:00.000Z",
    });
    const listed = await cli(["key", "list", "--workspace", workspace.id]);
    expect(listed.stdout).toContain(
      `${key.id}\tweb\temails:read,emails:send\tsenders billing@example.com, example.org; IPs 10.0.0.0/8; expires 2999-01-01T00:00:00.000Z\tactive`,
    );
    const revoked = await cli(["key", "revoke", "--workspace", workspace.id, "--id", key.id, "--json"]);
    expect(revoked.json()).toMatchObject({ id: key.id, revokedAt: expect.any(String) });
    const audit = await (
      await getDb()
    )
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, key.id))
      .orderBy(auditEvents.id);
    expect(audit.map((entry) => [entry.action, entry.actorType, entry.actorLabel])).toEqual([
      ["api_key.create", "SYSTEM", "CLI"],
      ["api_key.revoke", "SYSTEM", "CLI"],
    ]);
    const unknown = await cli([
      "key",
      "create",
      "--workspace",
      workspace.id,
      "--name",
      "x",
      "--scopes",
      "emails:delete",
      "--json",
    ]);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr).error).toMatchObject({
      param: "scopes",
      message: expect.stringContaining("emails:delete"),
    });
  });

  it("fails clearly for an unknown workspace and an ambiguous name", async () => {
    const missing = await cli(["key", "create", "--workspace", unique("Nobody"), "--name", "k"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Error: No workspace has the id or name "Nobody \w+"\.$/);

    const name = unique("Twin");
    await createWorkspace({ name });
    await createWorkspace({ name });
    const ambiguous = await cli(["key", "create", "--workspace", name, "--name", "k", "--json"]);
    expect(ambiguous.code).toBe(1);
    expect(JSON.parse(ambiguous.stderr)).toEqual({
      error: {
        code: "CONFLICT",
        message: `Several workspaces are named "${name}": pass the workspace id instead.`,
        param: "workspace",
      },
    });
  });
});

describe("user create", () => {
  it("creates a member with a role (any case) and prints no password hash", async () => {
    const workspace = await newWorkspace();
    const email = `Owner-${randomBase62(6)}@Example.com`;
    const result = await cli([
      "user",
      "create",
      "--email",
      email,
      "--password",
      "a-long-password",
      "--workspace",
      workspace.id,
      "--role",
      "owner",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const user = result.json();
    expect(user).toMatchObject({
      email: email.toLowerCase(),
      role: "OWNER",
      workspaceId: workspace.id,
      workspaceName: workspace.name,
    });
    expect(result.stdout).not.toContain("scrypt");
  });

  it("refuses a bad role (usage), an invalid email, a short password and a duplicate (errors)", async () => {
    const workspace = await newWorkspace();
    const base = ["user", "create", "--password", "a-long-password", "--workspace", workspace.id];
    const badRole = await cli([...base, "--email", "x@example.com", "--role", "boss"]);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('Error: --role must be one of OWNER, ADMIN, MEMBER (got "boss").');
    expect(badRole.stderr).toContain("Usage: npm run cli -- user create --email EMAIL");

    const badEmail = await cli([...base, "--email", "not-an-email"]);
    expect(badEmail).toMatchObject({ code: 1, stderr: 'Error: "not-an-email" is not a valid email address.' });

    const email = `dup-${randomBase62(6).toLowerCase()}@example.com`;
    const shortPassword = await cli([
      "user",
      "create",
      "--email",
      email,
      "--password",
      "short",
      "--workspace",
      workspace.id,
    ]);
    expect(shortPassword.code).toBe(1);
    expect(shortPassword.stderr).toContain("The password must be 8");

    expect((await cli([...base, "--email", email])).code).toBe(0);
    const duplicate = await cli([...base, "--email", email.toUpperCase()]);
    expect(duplicate).toMatchObject({ code: 1, stderr: `Error: A user with the email ${email} already exists.` });
  });
});

describe("domain add", () => {
  it("adds a verified domain with --verified, a pending one without", async () => {
    const workspace = await newWorkspace();
    const verified = await cli([
      "domain",
      "add",
      "--workspace",
      workspace.name,
      "--name",
      "Mail.Example.org",
      "--verified",
      "--json",
    ]);
    expect(verified.code).toBe(0);
    expect(verified.json()).toMatchObject({ name: "mail.example.org", status: "VERIFIED", workspaceId: workspace.id });
    expect(verified.json().verifiedAt).not.toBeNull();

    const pending = await cli(["domain", "add", "--workspace", workspace.id, "--name", "example.net"]);
    expect(pending.code).toBe(0);
    expect(pending.stdout).toContain("PENDING");
    const rows = await (await getDb()).select().from(domains).where(eq(domains.workspaceId, workspace.id));
    expect(rows.map((row) => row.name).sort()).toEqual(["example.net", "mail.example.org"]);
  });

  it("rejects an invalid domain name and a duplicate", async () => {
    const workspace = await newWorkspace();
    const invalid = await cli(["domain", "add", "--workspace", workspace.id, "--name", "not a domain"]);
    expect(invalid).toMatchObject({ code: 1, stderr: 'Error: "not a domain" is not a valid domain name.' });
    await cli(["domain", "add", "--workspace", workspace.id, "--name", "example.com"]);
    const duplicate = await cli(["domain", "add", "--workspace", workspace.id, "--name", "example.com"]);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("already added");
  });
});

describe("template create", () => {
  const html = path.join(tmp, "welcome.html");
  const text = path.join(tmp, "welcome.txt");
  fs.writeFileSync(html, '<p>Hi {{ name }}, <a href="https://example.com">start</a></p>');
  fs.writeFileSync(text, "Hi {{ name }}");

  it("reads the HTML and text files and stores every option", async () => {
    const workspace = await newWorkspace();
    const result = await cli([
      "template",
      "create",
      "--workspace",
      workspace.name,
      "--name",
      "Welcome",
      "--subject",
      "Hi {{ name }}",
      "--html",
      html,
      "--text",
      text,
      "--from",
      "Acme <hello@example.com>",
      "--reply-to",
      "help@example.com",
      "--strict",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const data = result.json();
    expect(data).toMatchObject({
      name: "Welcome",
      subject: "Hi {{ name }}",
      fromAddress: "Acme <hello@example.com>",
      replyTo: "help@example.com",
      strict: true,
      workspaceId: workspace.id,
    });
    expect(data.id).toMatch(/^tpl_/);
    const [row] = await (await getDb()).select().from(templates).where(eq(templates.id, data.id));
    expect(row).toMatchObject({ bodyHtml: fs.readFileSync(html, "utf8"), bodyText: "Hi {{ name }}" });
  });

  it("refuses a missing file (usage) and broken Liquid (error)", async () => {
    const workspace = await newWorkspace();
    const base = ["template", "create", "--workspace", workspace.id, "--name", "T", "--subject", "S"];
    const missing = await cli([...base, "--html", path.join(tmp, "nope.html")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`Error: Cannot read --html ${path.join(tmp, "nope.html")}: no such file.`);
    const broken = path.join(tmp, "broken.html");
    fs.writeFileSync(broken, "<p>{% if %}</p>");
    const liquid = await cli([...base, "--html", broken, "--json"]);
    expect(liquid.code).toBe(1);
    expect(JSON.parse(liquid.stderr).error.code).toBe("TEMPLATE_RENDER_ERROR");
  });
});

describe("db migrate", () => {
  it("reports an up-to-date database", async () => {
    const result = await cli(["db", "migrate", "--json"]);
    expect(result.code).toBe(0);
    const data = result.json();
    expect(data.applied).toBe(0);
    expect(data.total).toBeGreaterThanOrEqual(1);
  });
});

describe("seed", () => {
  it("creates the demo once, then says it exists", async () => {
    const name = unique("Demo");
    const first = await cli(["seed", "--name", name, "--json"]);
    expect(first.code).toBe(0);
    const data = first.json();
    expect(data).toMatchObject({
      status: "created",
      workspace: { name, testMode: false },
      domain: { name: "example.com", status: "VERIFIED" },
    });
    expect(data.curl).toContain(`-u '${data.key.username}:${data.key.password}'`);
    expect(data.curl).toContain(`"templateId":"${data.template.id}"`);

    const second = await cli(["seed", "--name", name]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      `The demo workspace "${name}" (${data.workspace.id}) already exists; nothing was changed.`,
    );
  });

  it("uses SEED_API_KEY for the demo key", async () => {
    const seedKey = `key_${randomBase62(16)}:${randomBase62(40)}`;
    process.env.SEED_API_KEY = seedKey;
    resetEnvForTests();
    try {
      const result = await cli(["seed", "--name", unique("Demo"), "--json"]);
      expect(result.code).toBe(0);
      const [username, password] = seedKey.split(":");
      expect(result.json().key).toEqual({ username, password });
      const principal = await authenticateApiKey(basicAuthHeader(username, password));
      expect(principal.workspaceId).toBe(result.json().workspace.id);
    } finally {
      delete process.env.SEED_API_KEY;
      resetEnvForTests();
    }
  });
});

describe("misuse and help", () => {
  it("no command: help on stderr, exit 2", async () => {
    const result = await cli([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: npm run cli -- <command> [flags]");
  });

  it("unknown commands and subcommands: exit 2 with a usage line", async () => {
    expect(await cli(["frobnicate"])).toMatchObject({
      code: 2,
      stderr:
        'Error: Unknown command "frobnicate".\nUsage: npm run cli -- <command> [flags]   (all commands: npm run cli -- help)',
    });
    const sub = await cli(["workspace", "delete"]);
    expect(sub.code).toBe(2);
    // Every command of the group, one per line.
    expect(sub.stderr.split("\n").slice(0, 2)).toEqual([
      'Error: Unknown command "workspace delete".',
      "Usage: npm run cli -- workspace create --name NAME [--no-test-mode] [--json]",
    ]);
    expect(sub.stderr).toContain("       npm run cli -- workspace pause ID|NAME [--reason TEXT] [--json]");
    expect((await cli(["key"])).stderr).toContain('Error: "key" needs a subcommand.');
  });

  it("missing, valueless and unknown flags: exit 2 with the command's usage", async () => {
    const missing = await cli(["key", "create", "--workspace", "x"]);
    expect(missing).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /^Error: Missing --name\.\nUsage: npm run cli -- key create --workspace ID\|NAME --name NAME \[--scopes /,
      ),
    });
    expect((await cli(["key", "create", "--workspace", "x", "--name"])).stderr).toContain(
      "Error: --name needs a value.",
    );
    expect((await cli(["workspace", "create", "--name", "  "])).stderr).toContain("Error: --name must not be empty.");
    expect((await cli(["workspace", "create", "--name", "x", "--color", "red"])).stderr).toContain(
      "Error: Unknown option --color.",
    );
    expect((await cli(["workspace", "create", "--name", "x", "extra"])).stderr).toContain(
      'Error: Unexpected argument "extra".',
    );
    const json = await cli(["seed", "--bogus", "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr.split("\n")[0])).toEqual({
      error: { code: "USAGE", message: "Unknown option --bogus." },
    });
  });

  it("help lists every command; <command> --help shows one; neither touches the database", async () => {
    const prepared: string[] = [];
    const options: RunCliOptions = { prepareDatabase: async (need) => void prepared.push(need) };
    const help = await cli(["help"], options);
    expect(help.code).toBe(0);
    for (const command of [
      "workspace create",
      "user create",
      "key create",
      "domain add",
      "template create",
      "db migrate",
      "seed",
    ]) {
      expect(help.stdout).toContain(`  ${command}`);
    }
    const one = await cli(["domain", "add", "--help"], options);
    expect(one).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("Usage: npm run cli -- domain add --workspace ID|NAME --name DOMAIN"),
    });
    await cli(["nope"], options);
    expect(prepared).toEqual([]);
    expect(help.stdout).toContain("  --version, -v");
    await cli(["db", "migrate"], options);
    await cli(["workspace", "create", "--name", unique("Prepared")], options);
    expect(prepared).toEqual(["open", "migrated"]);
  });
});

describe("--version", () => {
  it("--version and -v print package.json's version (JSON with --json) without opening the database", async () => {
    const { version } = JSON.parse(fs.readFileSync("package.json", "utf8"));
    const prepared: string[] = [];
    const options: RunCliOptions = { prepareDatabase: async (need) => void prepared.push(need) };
    expect(await cli(["--version"], options)).toMatchObject({ code: 0, stdout: version, stderr: "" });
    expect(await cli(["-v"], options)).toMatchObject({ code: 0, stdout: version, stderr: "" });
    expect((await cli(["--version", "--json"], options)).json()).toEqual({ version });
    expect(prepared).toEqual([]);
  });
});

describe("embedded data directory lock", () => {
  it("refuses to open DATA_DIR while the server holds it, and writes nothing", async () => {
    const dataDir = path.join(tmp, "data");
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, "server.pid"), `${process.ppid}\nserver\n`);
    const database = createCliDatabase({ DATABASE_URL: undefined, DATA_DIR: dataDir });
    const name = unique("Blocked");
    const result = await cli(["workspace", "create", "--name", name], { prepareDatabase: database.prepare });
    expect(result).toMatchObject({
      code: 1,
      stderr: `Error: The server (pid ${process.ppid}) is using DATA_DIR ${dataDir}; stop it first, or use DATABASE_URL.`,
    });
    expect(await (await getDb()).select().from(workspaces).where(eq(workspaces.name, name))).toHaveLength(0);
    expect(fs.readFileSync(path.join(dataDir, "server.pid"), "utf8")).toBe(`${process.ppid}\nserver\n`);
  });
});
